#!/usr/bin/env node
// First: it sizes libuv's thread pool, which is made on first use.
import '../build/src/cli/size-thread-pool.js';
import { runMain } from '../build/src/cli/main.js';

await runMain(process.argv.slice(2));
