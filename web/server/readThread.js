// A thread of readFilesInThreads (read.js): reads its share of the paths
// and posts the result (the chunks are shared, not copied).
import { parentPort, workerData } from 'node:worker_threads';
import { readFiles } from './read.js';

const { dir, paths } = workerData;
const { sizes, chunks, at, stamps, kinds, startedSec } = readFiles(dir, paths);
parentPort.postMessage({ sizes, chunks, at, stamps, kinds, startedSec });
