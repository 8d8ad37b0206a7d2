// pre.js - runs first inside the module factory.
//
// Under Node the generated loader would try to fetch() or read a file: URL
// for the .wasm and fail; hand it the bytes instead, read beside this file
// (the name is fixed by c/wasm/CMakeLists.txt). No import.meta here: the
// minifier of 3.1.6 crashes on it; _scriptDir holds import.meta.url.
if (typeof process === 'object' && process.versions && process.versions.node &&
    !Module['wasmBinary']) {
  Module['wasmBinary'] = require('fs').readFileSync(new URL('juliet_wasm.wasm', _scriptDir));
}

// Under Node, the worlds on the host's disk are reached through Node's own
// fs (c/src/base/fs_host.c calls these): one host call per operation, on
// host paths. Each returns 0 or an errno value in the module's numbering,
// or for what measures, the size or minus the errno value. A measured
// file's bytes or listing wait in `pending` for copy().
if (typeof process === 'object' && process.versions && process.versions.node) {
  Module['jlHost'] = (function () {
    var fs = require('fs');
    var C = fs.constants;
    var pending = null;
    var code = function (e) {
      return e && e.code && ERRNO_CODES[e.code] !== undefined ? ERRNO_CODES[e.code] : ERRNO_CODES.EIO;
    };
    // Five doubles in f64 from `at`: inode, device, size, whole seconds and
    // the nanoseconds apart (a double holds each exactly). Self-contained,
    // as readWhole.
    var putStamp = function (st, f64, at) {
      var second = BigInt(1000000000);
      f64[at] = Number(st.ino);
      f64[at + 1] = Number(st.dev);
      f64[at + 2] = Number(st.size);
      f64[at + 3] = Number(st.mtimeNs / second);
      f64[at + 4] = Number(st.mtimeNs % second);
    };
    // The whole regular file at path (at most max bytes), read from one
    // open file, its stamp into stamps from `s` (putStamp): its size, or
    // minus an errno value in `errno`'s numbering, EAGAIN if it changed in
    // place meanwhile. Into room from `at` when given (it has max + 1
    // bytes there), else into a buffer of its own, out[0]. Self-contained
    // but for putStamp: the reading thread runs its text (startReader).
    // O_NONBLOCK: opening a FIFO never waits for a writer.
    var readWhole = function (fs, errno, path, max, room, at, stamps, s, out) {
      var fd;
      try {
        fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      } catch (e) {
        return -(errno[e.code] || errno.EIO);
      }
      try {
        var st = fs.fstatSync(fd, {bigint: true});
        if (st.isDirectory()) return -errno.EISDIR;
        if (!st.isFile()) return -errno.EINVAL;
        if (st.size > BigInt(max)) return -errno.EFBIG;
        // To its end, the size only a hint, up to one byte past max.
        var size = Number(st.size), got = 0, n;
        var bytes = room || Buffer.allocUnsafe(Math.min(size, max) + 1);
        var from = room ? at : 0, room_size = room ? max + 1 : bytes.length;
        while ((n = fs.readSync(fd, bytes, from + got, room_size - got, null)) > 0) {
          got += n;
          // Short at the size fstat gave: the end, without a read more to
          // say so (a change meanwhile shows in the fstat below), as fs.c.
          if (got === size) break;
          if (got < room_size) continue;
          if (room_size > max) return -errno.EFBIG;
          var larger = Buffer.allocUnsafe(Math.min(room_size * 2, max + 1));
          bytes.copy(larger, 0, 0, got);
          bytes = larger;
          room_size = larger.length;
        }
        var after = fs.fstatSync(fd, {bigint: true});
        if (after.size !== st.size || after.mtimeNs !== st.mtimeNs) return -errno.EAGAIN;
        putStamp(st, stamps, s);
        if (out) out[0] = bytes.subarray(from, from + got);
        return got;
      } catch (e) {
        return -(errno[e.code] || errno.EIO);
      } finally {
        fs.closeSync(fd);
      }
    };
    var kindOf = function (st) {
      return st.isFile() ? 0 : st.isDirectory() ? 1 : 3; /* JL_FS_FILE, JL_FS_DIR, JL_FS_SPECIAL */
    };
    var call = function (fn) {
      try {
        fn();
        return 0;
      } catch (e) {
        return code(e);
      }
    };
    // Opens path with flags only to fsync it.
    var fsyncPath = function (path, flags) {
      return call(function () {
        var fd = fs.openSync(path, flags);
        try {
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
      });
    };
    // Batches (fs.h: batch_open, sync_batch) by negative handle, never an
    // fd: each the directory it is for and the files created in it since.
    var batches = new Map();
    var lastBatch = 0;
    var syncer = null; // the helper thread; false: none would start, this thread syncs
    var syncHere = function (paths) {
      for (var i = 0; i < paths.length; i++) {
        var result = fsyncPath(paths[i], C.O_RDONLY);
        if (result && result !== ERRNO_CODES.ENOENT) return result;
      }
      return 0;
    };
    // A helper thread running `code` (which may use parentPort and fs),
    // started once for its work: it says it runs before it is given work
    // (execArgv [] so that this process's flags, --input-type=module among
    // them, do not change how its code is read). False if it would not start.
    var startThread = function (code) {
      var threads = require('worker_threads');
      var alive = new Int32Array(new SharedArrayBuffer(4));
      var worker = new threads.Worker(
        "const { parentPort, workerData } = require('worker_threads');\n" +
          "const fs = require('fs');\n" +
          code +
          'Atomics.store(workerData.alive, 0, 1);\n' +
          'Atomics.notify(workerData.alive, 0);\n',
        {eval: true, execArgv: [], workerData: {alive: alive}},
      );
      worker.unref();
      return Atomics.wait(alive, 0, 0, 10000) === 'timed-out' && !alive[0] ? false : worker;
    };
    var startSyncer = function () {
      return startThread(
        // Opened and closed here, at once: only the fsync waits, in
        // libuv's thread pool (UV_THREADPOOL_SIZE of them at a time).
        'const fsync = require("util").promisify(fs.fsync);\n' +
          'async function sync(path) {\n' +
          "  const fd = fs.openSync(path, 'r');\n" +
          '  try { await fsync(fd); } finally { fs.closeSync(fd); }\n' +
          '}\n' +
          // 64 in flight: enough for the disk to take them together, few
          // enough open files at once.
          "parentPort.on('message', async ({ paths, errno, done }) => {\n" +
          '  let code = errno.EIO, next = 0, failed = null;\n' +
          '  const lane = async () => {\n' +
          '    while (next < paths.length) {\n' +
          '      try { await sync(paths[next++]); }\n' +
          "      catch (e) { if (e.code !== 'ENOENT' && !failed) failed = e; }\n" +
          '    }\n' +
          '  };\n' +
          '  try {\n' +
          '    await Promise.all(Array.from({ length: Math.min(64, paths.length) }, lane));\n' +
          '    code = failed ? errno[failed.code] || errno.EIO : 0;\n' +
          '  } finally {\n' +
          '    Atomics.store(done, 1, code);\n' +
          '    Atomics.store(done, 0, 1);\n' +
          '    Atomics.notify(done, 0);\n' +
          '  }\n' +
          '});\n',
      );
    };
    // The reading thread of readMany: takes the next path not taken yet
    // (state[0]) while fewer than `budget` bytes are in (state[1]) and its
    // room holds one file more, each into the room after the last; then
    // says it is done (state[2]).
    var reader = null; // false: none would start, readMany leaves files to readMeasure
    var READ_ROOM = 24 << 20; // the reading thread's files in one readMany, and one more
    var readRoom = null; // shared with the reading thread
    var many = null; // what the last readMany read: results, at, stamps, bytes
    var startReader = function () {
      return startThread(
        'const putStamp = ' + putStamp + ';\n' +
          'const readWhole = ' + readWhole + ';\n' +
          "parentPort.on('message', ({ paths, max, budget, state, results, at, stamps, room, errno }) => {\n" +
          '  let used = 0;\n' +
          '  try {\n' +
          '    while (Atomics.load(state, 1) < budget && room.length - used >= max + 1) {\n' +
          '      const i = Atomics.add(state, 0, 1);\n' +
          '      if (i >= paths.length) break;\n' +
          '      const got = readWhole(fs, errno, paths[i], max, room, used, stamps, 5 * i, null);\n' +
          '      results[i] = got;\n' +
          '      at[i] = used;\n' +
          '      if (got >= 0) {\n' +
          '        used += got;\n' +
          '        Atomics.add(state, 1, got + 1);\n' +
          '      }\n' +
          '    }\n' +
          '  } finally {\n' +
          '    Atomics.store(state, 2, 1);\n' +
          '    Atomics.notify(state, 2);\n' +
          '  }\n' +
          '});\n',
      );
    };
    // fsyncs `paths` many at a time on the helper thread (Node's own thread
    // pool, 64 in flight), this thread waiting: the disk takes them together, not one
    // round trip after another. The first failure's errno value, ENOENT
    // (a temporary removed since, after its own failure) aside.
    var syncAll = function (paths) {
      if (syncer === null) syncer = startSyncer();
      if (!syncer || paths.length < 2) return syncHere(paths);
      var done = new Int32Array(new SharedArrayBuffer(8));
      syncer.postMessage({paths: paths, errno: ERRNO_CODES, done: done});
      Atomics.wait(done, 0, 0);
      return done[1];
    };
    // A file of `given`, as it was read: its size, its bytes in `pending`,
    // its stamp then at `out` (a save finds a file changed since then, as
    // any file changed after the world opened). Not one modified within
    // racySec before the reading began (the same stamp could hide a later
    // write; the engine's own read judges that from now): -1, read from
    // the disk.
    var readGiven = function (given, path, max, out, racySec) {
      var i = path.startsWith(given.dir) ? given.indexOf(path.slice(given.dir.length)) : -1;
      if (i < 0) return -1;
      var s = given.stamps, at = 5 * i;
      if (s[at + 3] + s[at + 4] / 1e9 > given.startedSec - racySec) return -1;
      var bytes = given.bytes(i);
      if (!bytes || bytes.length > max) return -1;
      HEAPF64.set(s.subarray(at, at + 5), out >> 3);
      pending = bytes;
      return bytes.length;
    };
    return {
      // Files read already, as { dir (with a trailing '/'), indexOf (path
      // relative to dir -> i, or -1), stamps (five numbers a file, as putStamp),
      // bytes(i), startedSec }: juliet-world's openWorld `read` option
      // sets it while the world loads (readGiven).
      given: null,
      // The whole regular file (at most max bytes), read from one open
      // file, whose stamp goes to `out`: EAGAIN if it changed in place
      // meanwhile. O_NONBLOCK: opening a FIFO never waits for a writer.
      readMeasure: function (path, max, out, racySec) {
        var got = this.given ? readGiven(this.given, path, max, out, racySec) : -1;
        if (got >= 0) return got;
        var bytes = [null];
        got = readWhole(fs, ERRNO_CODES, path, max, null, 0, HEAPF64, out >> 3, bytes);
        if (got >= 0) pending = bytes[0];
        return got;
      },
      // The first of `count` paths (C strings at `paths`) read as
      // readMeasure reads each, until about `budget` bytes are in, this
      // thread and the reading thread side by side (fs_host.c's
      // read_files): how many, each then measured by take(i). -1: read them
      // one by one (no reading thread, or files given).
      readMany: function (paths, count, max, budget) {
        if (this.given || max + 1 > READ_ROOM) return -1;
        if (reader === null) reader = startReader();
        if (!reader) return -1;
        var names = [];
        for (var i = 0; i < count; i++) names.push(UTF8ToString(HEAPU32[(paths >> 2) + i]));
        var shared = function (Type, n) {
          return new Type(new SharedArrayBuffer(n * Type.BYTES_PER_ELEMENT));
        };
        readRoom = readRoom || shared(Uint8Array, READ_ROOM);
        // [next path to take, bytes in, the reading thread done]
        var state = shared(Int32Array, 3);
        many = {results: shared(Float64Array, count), at: shared(Float64Array, count), stamps: shared(Float64Array, 5 * count), bytes: []};
        reader.postMessage({paths: names, max: max, budget: budget, state: state, results: many.results, at: many.at,
                            stamps: many.stamps, room: readRoom, errno: ERRNO_CODES});
        var out = [null];
        while (Atomics.load(state, 1) < budget) {
          var k = Atomics.add(state, 0, 1);
          if (k >= count) break;
          var got = readWhole(fs, ERRNO_CODES, names[k], max, null, 0, many.stamps, 5 * k, out);
          many.results[k] = got;
          if (got >= 0) {
            many.bytes[k] = out[0];
            Atomics.add(state, 1, got + 1);
          }
        }
        Atomics.wait(state, 2, 0);
        return Math.min(Atomics.load(state, 0), count);
      },
      // File i of the last readMany: as readMeasure answers for it.
      take: function (i, out) {
        var got = many.results[i];
        if (got < 0) return got;
        pending = many.bytes[i] || readRoom.subarray(many.at[i], many.at[i] + got);
        HEAPF64.set(many.stamps.subarray(5 * i, 5 * i + 5), out >> 3);
        return got;
      },
      // The directory's entries as fs.c packs them: per entry a kind byte,
      // the name, a NUL. Links are followed; one that leads nowhere (or
      // in a loop) is JL_FS_OTHER.
      listMeasure: function (path) {
        // Read a thousand entries at a time and written into one buffer as
        // they come: all the entries at once, then a string of their names,
        // held 1,000,000 names 175 MB more and took half as long again.
        var dir, d, packed = Buffer.allocUnsafe(1 << 16), at = 0;
        try {
          dir = fs.opendirSync(path, {bufferSize: 1024});
          while ((d = dir.readSync()) !== null) {
            var kind = 2;
            if (d.isFile()) kind = 0;
            else if (d.isDirectory()) kind = 1;
            else if (!d.isSymbolicLink()) kind = 3;
            else {
              try {
                kind = kindOf(fs.statSync(path + '/' + d.name));
              } catch (e) {}
            }
            var most = 2 + 3 * d.name.length; // UTF-8 of UTF-16 code units
            if (at + most > packed.length) {
              var grown = Buffer.allocUnsafe(Math.max(2 * packed.length, at + most));
              packed.copy(grown, 0, 0, at);
              packed = grown;
            }
            packed[at++] = kind;
            at += packed.write(d.name, at);
            packed[at++] = 0;
          }
        } catch (e) {
          return -code(e);
        } finally {
          if (dir) dir.closeSync();
        }
        pending = packed.subarray(0, at);
        return at;
      },
      copy: function (out) {
        if (out) HEAPU8.set(pending, out);
        pending = null;
      },
      // Exclusive and never through a link: anything at path refuses it.
      openWrite: function (path) {
        var fd;
        try {
          fd = fs.openSync(path, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 420 /* 0644 */);
        } catch (e) {
          return -code(e);
        }
        var dir = path.slice(0, path.lastIndexOf('/'));
        batches.forEach(function (batch) {
          if (batch.dir === dir) batch.paths.push(path);
        });
        return fd;
      },
      batchOpen: function (dir) {
        batches.set(--lastBatch, {dir: dir, paths: []});
        return lastBatch;
      },
      syncBatch: function (handle) {
        var batch = batches.get(handle);
        batches.delete(handle);
        return batch ? syncAll(batch.paths) : ERRNO_CODES.EBADF;
      },
      write: function (fd, data, size) {
        return call(function () {
          for (var done = 0; done < size; ) {
            var n = fs.writeSync(fd, HEAPU8, data + done, size - done);
            if (n <= 0) throw {code: 'EIO'};
            done += n;
          }
        });
      },
      sync: function (fd) {
        return call(function () {
          fs.fsyncSync(fd);
        });
      },
      // A batch given up (fs.h) is closed too.
      close: function (fd) {
        if (fd < 0) return batches.delete(fd) ? 0 : ERRNO_CODES.EBADF;
        return call(function () {
          fs.closeSync(fd);
        });
      },
      rename: function (from, to) {
        return call(function () {
          fs.renameSync(from, to);
        });
      },
      // Some file systems refuse fsync on a directory: nothing more to do.
      syncDir: function (path) {
        var result = fsyncPath(path, C.O_RDONLY | C.O_DIRECTORY);
        return result === ERRNO_CODES.EINVAL || result === ERRNO_CODES.EROFS ? 0 : result;
      },
      remove: function (path) {
        return call(function () {
          fs.unlinkSync(path);
        });
      },
      stat: function (path, out) {
        return call(function () {
          putStamp(fs.statSync(path, {bigint: true}), HEAPF64, out >> 3);
        });
      },
      // With `like`, its permissions, and its owner where this process may
      // give it (root): chmod after mkdir, which the umask does not touch.
      makeDir: function (path, like) {
        return call(function () {
          var st = like === null ? null : fs.statSync(like);
          fs.mkdirSync(path, 493 /* 0755 */);
          if (!st) return;
          try {
            fs.chmodSync(path, st.mode & 4095);
            if (st.uid !== process.getuid() || st.gid !== process.getgid()) {
              try {
                fs.chownSync(path, st.uid, st.gid);
              } catch (e) {
                if (e.code !== 'EPERM') throw e;
              }
            }
          } catch (e) {
            fs.rmdirSync(path);
            throw e;
          }
        });
      },
      removeDir: function (path) {
        return call(function () {
          fs.rmdirSync(path);
        });
      },
    };
  })();
}

// The tree's table of names has 4,096 buckets: with 100,000 files in one
// directory a lookup walked a chain of 25 nodes. 2^18 buckets keep chains
// short up to a million files (2 MB of table).
Module['preRun'] = [].concat(Module['preRun'] || [], function juliet_fs_name_table() {
  var nodes = [];
  FS.nameTable.forEach(function (head) {
    for (var node = head; node; node = node.name_next) nodes.push(node);
  });
  FS.nameTable = new Array(1 << 18);
  nodes.forEach(function (node) {
    FS.hashAddNode(node);
  });
});

// Every change to the tree's shape (a node made, renamed, removed, a file
// system mounted) is counted, so fs.c's reads of a directory of memory
// know whether what it listed still holds without looking each name up.
Module['jlChanges'] = 0;
Module['preRun'] = [].concat(Module['preRun'] || [], function juliet_count_fs_changes() {
  ['mknod', 'symlink', 'rename', 'unlink', 'rmdir', 'mount', 'unmount'].forEach(function (op) {
    var original = FS[op];
    FS[op] = function () {
      Module['jlChanges']++;
      return original.apply(null, arguments);
    };
  });
});
