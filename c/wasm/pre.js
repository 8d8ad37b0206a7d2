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
    var SECOND = BigInt(1000000000);
    var pending = null;
    var code = function (e) {
      return e && e.code && ERRNO_CODES[e.code] !== undefined ? ERRNO_CODES[e.code] : ERRNO_CODES.EIO;
    };
    // Five doubles at `out`: inode, device, size, whole seconds and the
    // nanoseconds apart (a double holds each exactly).
    var putStamp = function (st, out) {
      var f64 = HEAPF64.subarray(out >> 3, (out >> 3) + 5);
      f64[0] = Number(st.ino);
      f64[1] = Number(st.dev);
      f64[2] = Number(st.size);
      f64[3] = Number(st.mtimeNs / SECOND);
      f64[4] = Number(st.mtimeNs % SECOND);
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
    // The helper thread, started once: it says it runs before it is given
    // work (execArgv [] so that this process's flags, --input-type=module
    // among them, do not change how its code is read).
    var startSyncer = function () {
      var threads = require('worker_threads');
      var alive = new Int32Array(new SharedArrayBuffer(4));
      var worker = new threads.Worker(
        "const { parentPort, workerData } = require('worker_threads');\n" +
          "const fs = require('fs');\n" +
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
          '});\n' +
          'Atomics.store(workerData.alive, 0, 1);\n' +
          'Atomics.notify(workerData.alive, 0);\n',
        {eval: true, execArgv: [], workerData: {alive: alive}},
      );
      worker.unref();
      return Atomics.wait(alive, 0, 0, 10000) === 'timed-out' && !alive[0] ? false : worker;
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
        var fd;
        try {
          fd = fs.openSync(path, C.O_RDONLY | C.O_NONBLOCK);
        } catch (e) {
          return -code(e);
        }
        try {
          var st = fs.fstatSync(fd, {bigint: true});
          if (st.isDirectory()) return -ERRNO_CODES.EISDIR;
          if (!st.isFile()) return -ERRNO_CODES.EINVAL;
          if (st.size > BigInt(max)) return -ERRNO_CODES.EFBIG;
          // To its end, the size only a hint, up to one byte past max.
          var bytes = Buffer.allocUnsafe(Math.min(Number(st.size), max) + 1), got = 0, n;
          while ((n = fs.readSync(fd, bytes, got, bytes.length - got, null)) > 0) {
            got += n;
            if (got < bytes.length) continue;
            if (bytes.length > max) return -ERRNO_CODES.EFBIG;
            var larger = Buffer.allocUnsafe(Math.min(bytes.length * 2, max + 1));
            bytes.copy(larger, 0, 0, got);
            bytes = larger;
          }
          var after = fs.fstatSync(fd, {bigint: true});
          if (after.size !== st.size || after.mtimeNs !== st.mtimeNs) return -ERRNO_CODES.EAGAIN;
          putStamp(st, out);
          pending = bytes.subarray(0, got);
          return got;
        } catch (e) {
          return -code(e);
        } finally {
          fs.closeSync(fd);
        }
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
          putStamp(fs.statSync(path, {bigint: true}), out);
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
