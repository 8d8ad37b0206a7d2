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
// cannot be seen); and a file another process deleted is gone here too (the
// tree caches every node it looked up, so a deleted lock file stayed
// "there" and could never be taken again).
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
  var lookupNode = FS.lookupNode;
  FS.lookupNode = function (parent, name) {
    var node = lookupNode(parent, name);
    if (node.mount && node.mount.type === NODEFS && node !== node.mount.root) {
      try {
        nodeFs.lstatSync(NODEFS.realPath(node));
      } catch (e) {
        if (e.code !== 'ENOENT') throw errno(e);
        FS.destroyNode(node);
        return lookupNode(parent, name);
      }
    }
    return node;
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
