// Imported first by main.ts: runs the worker with the image's heap bounds however it was started.
import { boundHeap, IMAGE_HEAP_FLAGS } from '@catalogue/config';

boundHeap('generation-worker', IMAGE_HEAP_FLAGS);
