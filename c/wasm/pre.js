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

// Under Node, NODEFS stands for the real disk, and must keep the promises
// the engine makes there (fs.h): fsync reaches the disk (3.1.6's NODEFS has
// no fsync, so the save's fsyncs were no-ops); a file the engine creates
// exclusively (temporaries, the world lock) is created exclusively on the
// host too (3.1.6 checks O_EXCL in its own tree only, where another process
// cannot be seen); and a file another process deleted is gone here too when
// the engine creates it again (the tree caches every node it looked up, so
// a deleted lock file stayed "there" and could never be taken again). Only
// a create or a mkdir asks the host whether a cached node is still there:
// every other call on a node reaches the host anyway (NODEFS works on
// paths), which answers ENOENT for one that is gone, and asking on every
// lookup cost an lstat per path component (14 per file opened).
Module['preRun'] = [].concat(Module['preRun'] || [], function juliet_nodefs_durable() {
  if (typeof NODEFS === 'undefined' || !(typeof process === 'object' && process.versions && process.versions.node)) {
    return;
  }
  var nodeFs = require('fs');
  var errno = function (e) {
    return new FS.ErrnoError(e.code && ERRNO_CODES[e.code] !== undefined ? ERRNO_CODES[e.code] : 29 /* EIO */);
  };
  NODEFS.stream_ops.fsync = function (stream) {
    try {
      if (stream.nfd !== undefined && stream.nfd !== null) {
        nodeFs.fsyncSync(stream.nfd);
      } else if (FS.isDir(stream.node.mode)) {
        var fd = nodeFs.openSync(NODEFS.realPath(stream.node), 'r');
        try {
          nodeFs.fsyncSync(fd);
        } finally {
          nodeFs.closeSync(fd);
        }
      }
    } catch (e) {
      // Some file systems refuse fsync on a directory, as natively.
      if (e.code !== 'EINVAL' && e.code !== 'EISDIR') throw errno(e);
    }
    return 0;
  };
  // Drops the cached node of `path` if the host no longer has it.
  var forgetGone = function (path, follow) {
    var node;
    try {
      node = FS.lookupPath(path, { follow: follow }).node;
    } catch (e) {
      return; // not cached, or its directory is not: the host is asked
    }
    if (!node.mount || node.mount.type !== NODEFS || node === node.mount.root) return;
    try {
      nodeFs.lstatSync(NODEFS.realPath(node));
    } catch (e) {
      if (e.code !== 'ENOENT') throw errno(e);
      FS.destroyNode(node);
    }
  };
  var O_CREAT = 64;
  var O_NOFOLLOW = 131072;
  var open = FS.open;
  FS.open = function (path, flags) {
    if (typeof path === 'string' && typeof flags === 'number' && flags & O_CREAT) forgetGone(path, !(flags & O_NOFOLLOW));
    return open.apply(this, arguments);
  };
  var mkdir = FS.mkdir;
  FS.mkdir = function (path) {
    forgetGone(path, false);
    return mkdir.apply(this, arguments);
  };
  var mknod = NODEFS.node_ops.mknod;
  NODEFS.node_ops.mknod = function (parent, name, mode, dev) {
    if (FS.isFile(mode)) {
      try {
        nodeFs.closeSync(nodeFs.openSync(PATH.join2(NODEFS.realPath(parent), name), 'wx', mode & 511));
      } catch (e) {
        throw errno(e);
      }
    }
    return mknod(parent, name, mode, dev);
  };
});

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
