// Imported first by main.ts: runs the catalogue API with its heap flags however it was started
// (the image's bounds and the old generation's floor, libs/config heap-bounds.ts).
import { boundHeap, CATALOGUE_API_HEAP_FLAGS } from '@catalogue/config';

boundHeap('catalogue-api', CATALOGUE_API_HEAP_FLAGS);
