// libuv runs file system work (and zlib's and crypto's async calls) on a pool of 4 threads by
// default. A hub pass fsyncs every ref it moves before renaming it into place, 51 in the
// benchmark: 4 at a time, each waits for its own journal commit (130-200 ms for the batch on
// the development machine when its disk is busy), while 64 at a time share commits (40-50 ms).
// The pool is made on first use, so this module is imported before any other; a value the
// user set is kept.
if (process.env['UV_THREADPOOL_SIZE'] === undefined) process.env['UV_THREADPOOL_SIZE'] = '64';

export {};
