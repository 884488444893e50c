// Imported first by main.ts: runs the worker with V8's heap bounds however it was started.
import { boundHeap } from './heap-bounds';

boundHeap();
