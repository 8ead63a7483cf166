#!/usr/bin/env node
// First: it sizes libuv's thread pool, which is made on first use.
import '../build/src/cli/size-thread-pool.js';
import { main } from '../build/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
