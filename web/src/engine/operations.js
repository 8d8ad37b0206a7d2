// The engine's operations on the one open world: what the engine worker
// (worker.js) runs for the page, and what node:test runs in-process. The
// wasm module is the juliet-world library loaded through juliet-sample:
// the sample game's build, with its classes compiled in. Each
// takes one argument object and answers { result, transfer } (transfer: the
// buffers a worker may hand over). Opening or saving thousands of files
// here never blocks the page, since the worker runs it.
import { DEFAULT_CAPACITY, SETTINGS_FILE, entityPath, idOfPath, isClassFilePath, nameRecord, packReader, textValue } from 'juliet-world';
import { loadJuliet } from 'juliet-sample';
import { withId } from '../lib/entityClipboard.js';
import { lineExcerpt } from '../lib/excerpt.js';
import { SETTINGS, sameBytes } from '../lib/fields.js';
import { hasParentField, PARENT_FIELD } from '../lib/hierarchy.js';
import { nameField } from '../lib/names.js';
import { BASE_FIELDS, matchTerm } from '../lib/query.js';
import { columnTexts } from './columns.js';
import { errorInfo } from './errors.js';

// Worlds live in the module's memory, in Node too: the page's folder is
// written by the page (or the local server), never by these operations.
const IN_MEMORY = { inMemory: true };

// Operations that need no open world.
const WITHOUT_WORLD = new Set(['begin', 'addFiles', 'load', 'openSnapshot', 'openServed', 'check', 'linkKind', 'readChanges']);

/** The operations, with state of their own: `run(op, args)` answers
 * { result, transfer }, or throws (an engine error, or 'No world is open').
 * `onProgress({ label, done, total })` hears of long work. */
export function createOperations({ onProgress = () => {} } = {}) {
  let juliet = null;
  // The open world. Whether an entity (or the settings) is clean, that is
  // holds what its file holds, is the engine's to decide: this worker keeps
  // no file texts to decide it (`before` below only feeds the review). The
  // world settings go through the same requests as an entity, under the name
  // SETTINGS in place of an ID (edits, undo, kept work). Texts in the answers are the file's bytes (Uint8Array), never
  // decoded.
  let world = null;
  let worldDir = null;
  let openCount = 0;
  // For the review of pending changes only (clean or not stays the engine's
  // to decide): the text of each entity (or the settings) just before its
  // first change since it was last clean, or since the world was opened
  // (null: it did not exist then). Forgotten once its file holds the page's
  // text again (saved, or reloaded from disk), when the next change records
  // it afresh.
  const before = new Map(); // ID or SETTINGS -> Uint8Array | null

  // Records what entity `id` (or the settings) is before a change, unless a
  // change since it was last clean already did.
  function noteBefore(id) {
    if (!before.has(id)) before.set(id, id === SETTINGS || world.has(id) ? textOf(id) : null);
  }

  function progress(label, done, total) {
    onProgress({ label, done, total });
  }

  // The world's entities as columns sorted by ID, ready to transfer, with each one's name
  // (lib/names.js; '' for none). The IDs in `last` come last, in that order
  // (entities added in the session being restored).
  function table(last = []) {
    const r = world.rows();
    const n = r.count;
    const words = r.idWords;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    // By ID: the halves compared as numbers, as the ID strings compare.
    const byId = (a, b) => words[2 * a + 1] - words[2 * b + 1] || words[2 * a] - words[2 * b];
    if (last.length > 0) {
      const rank = new Map(last.map((id, i) => [id, i + 1]));
      const { ids } = r;
      order.sort((a, b) => (rank.get(ids[a]) ?? 0) - (rank.get(ids[b]) ?? 0) || byId(a, b));
    } else if (!inOrder(n, byId)) {
      // A world read from its files is in order already: the sort, 0.4 s at
      // 1,000,000 entities even then, is skipped.
      order.sort(byId);
    }
    const cls = new Uint8Array(n);
    const pos = new Float32Array(n * 3);
    const dirty = new Uint8Array(n);
    const names = new Array(n);
    const parents = new Array(n);
    // Each class's name field and parent, read for every entity at once
    // (fieldTexts).
    const classSchemas = r.classNames.map((name) => world.schema(name));
    const fields = classSchemas.map((schema) => nameField(schema));
    const read = new Map([...new Set(fields)].filter(Boolean).map((f) => [f, world.fieldTexts(f)]));
    const nameTexts = fields.map((f) => f && read.get(f));
    const nested = classSchemas.map((schema) => hasParentField(schema));
    const parentTexts = nested.includes(true) ? world.fieldTexts(PARENT_FIELD) : [];
    for (let i = 0; i < n; i++) {
      const k = order[i];
      cls[i] = r.classIndex[k];
      pos[i * 3] = r.positions[k * 3];
      pos[i * 3 + 1] = r.positions[k * 3 + 1];
      pos[i * 3 + 2] = r.positions[k * 3 + 2];
      dirty[i] = r.dirty[k];
      const texts = nameTexts[cls[i]];
      names[i] = texts ? textValue('string', texts[k] ?? '') : '';
      parents[i] = nested[cls[i]] ? textValue('entity_ref', parentTexts[k] ?? 'none') : null;
    }
    return {
      ...columnTexts(words, order, names, parents),
      classNames: r.classNames,
      cls,
      pos,
      dirty,
    };
  }

  // Whether rows 0..n-1 are in the order `compare` gives.
  function inOrder(n, compare) {
    for (let i = 1; i < n; i++) if (compare(i - 1, i) > 0) return false;
    return true;
  }

  // The fields of each of the world's own classes (`names`: the world's, by
  // class index), not of the classes the module was built with.
  function schemas(names) {
    return nameRecord(names.map((name) => [name, world.schema(name)]));
  }

  // IDs of the entities still dirty (after a save).
  function dirtyIds() {
    const r = world.rows();
    const out = [];
    for (let i = 0; i < r.count; i++) if (r.dirty[i]) out.push(r.ids[i]);
    return out;
  }

  // Paths in diagnostics, and in their messages, relative to the world
  // folder; each says whether its file failed to load (else it is about an
  // entity that loaded, such as a reference to a missing one) and carries the
  // line it points at (the first EXCERPTS of them: each reads its file).
  const EXCERPTS = 1000;
  function diagnostics() {
    return world.diagnostics().map((d, i) => {
      const path = d.path ? relativePath(d.path) : d.path;
      return {
        ...d,
        path,
        message: d.message && worldDir ? d.message.split(`${worldDir}/`).join('') : d.message,
        failed: !isLoaded(path),
        excerpt: i < EXCERPTS && d.line > 0 ? lineExcerpt(readWorldFile(d.path), d.line, d.col) : null,
      };
    });
  }

  // The bytes of a file of the world folder (an absolute path), or null.
  function readWorldFile(path) {
    try {
      return worldDir && path.startsWith(`${worldDir}/`) ? juliet.readFile(path) : null;
    } catch {
      return null; // a directory, or a file gone
    }
  }

  // True if the file at `path` (relative) holds an entity of the world, or
  // its settings, that loaded.
  function isLoaded(path) {
    if (!path) return false;
    if (path === SETTINGS_FILE) return !world.settings().failed;
    const id = idOfPath(path);
    return id !== null && world.has(id);
  }

  // The diagnostics of the references that name no entity now, marked as
  // such: files reloaded later may add or settle some (putFiles). Each is in
  // the file of a live entity, which loaded.
  function referenceDiagnostics() {
    return world.missingReferences().map((d) => ({ ...d, reference: true, failed: false, excerpt: null }));
  }

  async function closeWorld() {
    juliet ??= await loadJuliet();
    before.clear();
    if (world) world.close();
    world = null;
    if (worldDir) juliet.removeFiles(worldDir);
    worldDir = null;
  }

  // The current text of entity `id` (or of the settings), as its file holds
  // it once saved.
  function textOf(id) {
    return id === SETTINGS ? world.settingsBytes() : world.entityBytes(id);
  }

  // Entity `id` (or the settings) becomes `text` (null: removed): an undo
  // step, clean when it is its file's text (the engine's rule).
  function restoreText(id, text) {
    noteBefore(id);
    if (id === SETTINGS) {
      if (text !== null) world.restoreSettingsText(text);
    } else {
      world.restoreEntityText(id, text);
    }
  }

  // A failed load (a JulietError) as a diagnostic of the file at `path`,
  // with the line it points at when the file's `bytes` are given.
  function diagnosticOf(err, path, bytes = null) {
    const line = err.line ?? 0;
    const col = err.col ?? 0;
    return {
      path: err.path ?? path,
      line,
      col,
      message: err.detail ?? err.message,
      code: err.code ?? 'invalid_argument',
      failed: true,
      excerpt: line > 0 ? lineExcerpt(bytes, line, col) : null,
    };
  }

  // The file at `path` (an entity's, or the settings') holds `bytes` (null:
  // it is gone): the engine makes its entity (or the settings) that text,
  // clean, checking that the file's name is the entity's ID. Returns { id,
  // failure }: the entity's ID (null for the settings or a path that names
  // none) and null, or the diagnostic of a text that did not load (then no
  // entity holds it, or the settings are failed).
  function loadFile(path, bytes) {
    try {
      // A class file joins the world before the entities of its class (the
      // server sends class files first); changed later, it must agree with
      // the class the world has (else a diagnostic naming both: the world
      // uses the new file when it is opened again).
      if (isClassFilePath(path)) {
        if (bytes !== null) world.loadClassText(path, bytes);
        return { id: null, failure: null };
      }
      const id = world.reloadFile(path, bytes);
      before.delete(id ?? SETTINGS);
      return { id, failure: null };
    } catch (err) {
      before.delete(err.id ?? SETTINGS);
      return { id: err.id ?? null, failure: diagnosticOf(err, path, bytes) };
    }
  }

  // The files of a run of a world pack ({ from, to, bytes, at }: juliet-world's
  // packReader) into the world, their failures pushed on `failures`: class
  // files one by one (the server sends them first), the files between them
  // in one call.
  function loadRun({ from, to, bytes, at }, { paths, sizes }, failures) {
    for (let i = from; i < to;) {
      let end = i;
      let size = 0;
      while (end < to && !isClassFilePath(paths[end])) size += Math.max(sizes[end++], 0);
      const run = { names: paths, sizes, bytes, at, from: i, to: end };
      if (end > i) {
        for (const { index, error } of world.reloadFiles(run)) failures.push(diagnosticOf(error, paths[index], fileIn(run, index)));
      }
      at += size;
      if (end === to) break;
      const classSize = Math.max(sizes[end], 0);
      const { failure } = loadFile(paths[end], sizes[end] < 0 ? null : bytes.subarray(at, at + classSize));
      if (failure) failures.push(failure);
      at += classSize;
      i = end + 1;
    }
  }

  // The bytes of file `index` of a run (juliet-world's pack: sizes below 0 are files
  // that are gone).
  function fileIn({ sizes, bytes, at, from }, index) {
    let offset = at;
    for (let k = from; k < index; k++) offset += Math.max(sizes[k], 0);
    return sizes[index] < 0 ? null : bytes.subarray(offset, offset + sizes[index]);
  }

  function opened(timings, last) {
    const t = performance.now();
    const columns = table(last);
    timings.tableMs = performance.now() - t;
    return {
      result: {
        table: columns,
        schemas: schemas(columns.classNames),
        settings: world.settings(),
        settingsSchema: world.settingsSchema(),
        diagnostics: diagnostics(),
        opaqueClasses: world.opaqueClasses(),
        timings,
      },
      transfer: [columns.cls.buffer, columns.pos.buffer, columns.dirty.buffer],
    };
  }

  const ops = {
    // Opening a world: begin, then addFiles for each chunk of its files
    // (paths relative to the world folder, contents as ArrayBuffers), then
    // load.
    async begin() {
      await closeWorld();
      worldDir = `/worlds/${++openCount}`;
      return { result: true };
    },
    async addFiles({ paths, buffers }) {
      juliet.writeFiles(
        worldDir,
        paths.map((path, i) => ({ path, bytes: new Uint8Array(buffers[i]) })),
      );
      return { result: true };
    },
    async load() {
      const t = performance.now();
      world = juliet.openWorld(worldDir, IN_MEMORY);
      return opened({ loadMs: performance.now() - t });
    },
    // A shared level (a link, its part after '#', or snapshot text): a new
    // world with no folder until it is saved.
    // A link that cannot be read leaves the open world as it was.
    async openSnapshot({ text }) {
      juliet ??= await loadJuliet();
      const t = performance.now();
      const next = await juliet.openSnapshot(text, IN_MEMORY);
      await closeWorld();
      world = next;
      return opened({ loadMs: performance.now() - t });
    },
    // A world served by the local server (web/server): its pack (juliet-world's pack)
    // fetched with `request` ({ url, headers }) and read as it downloads, each
    // file loaded as soon as its bytes are in. It has no folder here: the
    // server saves it. The answer also holds the pack's `index`: its meta and
    // the version of each file.
    async openServed({ request }) {
      const t = performance.now();
      // The download starts while the wasm module loads.
      const responded = fetch(request.url, { headers: request.headers, cache: 'no-store' });
      juliet ??= await loadJuliet();
      const bootMs = performance.now() - t;
      const response = await responded;
      if (!response.ok) throw new Error(`the local server answered ${response.status}: ${await response.text()}`);
      const reader = packReader();
      const failures = [];
      const stream = response.body.getReader();
      let started = false;
      let filesMs = 0; // of the time, in the engine loading files
      let firstByteMs = null; // when the server's first bytes came
      for (;;) {
        const { done, value } = await stream.read();
        if (done) break;
        firstByteMs ??= performance.now() - t;
        const runs = reader.pushRuns(value);
        // The world the files go into, once the index tells how many: room
        // for them and DEFAULT_CAPACITY more, as the server's engine has
        // (a page that made more could not save them) and as openSnapshot
        // gives. Twice as many held 350 MB more at 1,000,000.
        if (reader.index && !started) {
          started = true;
          const next = juliet.newWorld({ ...IN_MEMORY, capacity: reader.index.paths.length + DEFAULT_CAPACITY });
          await closeWorld();
          world = next;
        }
        if (runs.length === 0) continue;
        const t0 = performance.now();
        for (const run of runs) loadRun(run, reader.index, failures);
        filesMs += performance.now() - t0;
        progress('Loading entities', runs.at(-1).to, reader.index.paths.length);
      }
      reader.end();
      const { meta, pathBytes, seqs } = reader.index;
      const out = opened({ bootMs, firstByteMs, loadMs: performance.now() - t, filesMs });
      // The references checked once every file is in, as for a folder.
      const t1 = performance.now();
      out.result.diagnostics = [...failures, ...referenceDiagnostics()];
      out.result.timings.referencesMs = performance.now() - t1;
      // The paths as the pack's bytes: the page finds one there
      // (pathIndex) without a string a path.
      out.result.index = { meta, pathBytes, seqs };
      out.transfer.push(pathBytes.buffer, seqs.buffer);
      return out;
    },
    // Files of a pack's world changed on disk (or their disk version was
    // chosen over the page's): [{ path, text }] (text null: no file). Each
    // entity, or the settings, becomes its file's text, clean, and that text
    // is its file's from now on. With keepEdited, an entity (or the settings)
    // changed in the page since it was last clean is left as it is and its
    // path listed in `skipped` (an edit that reached the engine first).
    // Returns the entities ({ id, entity } with entity null for none), the
    // settings, the diagnostics of the texts that did not load and those of
    // every reference that names no entity now (`references`: they replace
    // the earlier ones).
    async putFiles({ files, keepEdited = false }) {
      const ids = [];
      const diagnostics = [];
      const skipped = [];
      for (const { path, text } of files) {
        if (keepEdited && isEdited(path)) {
          skipped.push(path);
          continue;
        }
        const { id, failure } = loadFile(path, text);
        if (failure) diagnostics.push(failure);
        if (id !== null) ids.push(id);
      }
      return { result: shownFiles(ids, diagnostics, skipped) };
    },
    // A file changed both on disk and in the page, merged key by key by the
    // engine (Juliet#textMerge): the base is what entity `id` (or the
    // settings) was before its first change since it was last clean, ours
    // what it is now, theirs `disk`, the text of its file `path` on disk now.
    // A key both sides changed differently is a key conflict: the merge keeps
    // the page's value, or the disk's where `theirs` names the key. Answers
    // { conflicts: [{ key, base, ours, theirs }] } (null: a side lacks the
    // key), with `reason` set when it cannot be merged so: a side deleted it,
    // it has no earlier text (new in the page), or a text does not tokenize.
    // With `apply`, unless there are key conflicts and `theirs` is null
    // (nobody picked), the merge becomes the page's version: `disk` its
    // file's text (as putFiles makes it), the merged text its text (clean
    // only if the same), its review compares with the disk's. Then
    // `applied` is true and the rest is putFiles' answer. A merged text (or
    // disk text) the engine refuses changes nothing: `reason` names its line.
    async mergeDisk({ id, path, disk, theirs = null, apply = false }) {
      const ours = id === SETTINGS || world.has(id) ? textOf(id) : null;
      const base = before.get(id) ?? null;
      const unmerged = (reason, conflicts = []) => ({ result: { conflicts, reason, applied: false } });
      if (disk === null) return unmerged('it was deleted on disk');
      if (ours === null) return unmerged('it was deleted in this page');
      if (base === null) return unmerged('it is new in this page');
      let merged;
      try {
        merged = juliet.textMerge(base, ours, disk, { path, theirs: theirs ?? [] });
      } catch (err) {
        return unmerged(err.message);
      }
      const { text, conflicts } = merged;
      if (!apply || (conflicts.length > 0 && theirs === null)) return { result: { conflicts, reason: null, applied: false } };
      // Both texts checked by loading them before the file becomes the
      // disk's: a disk text that does not load would leave no entity.
      let checking = 'the merged text';
      try {
        restoreText(id, text);
        checking = 'the text on disk';
        restoreText(id, disk);
      } catch (err) {
        restoreText(id, ours);
        const where = err.line ? `${path}:${err.line}:${err.col}: ` : '';
        return unmerged(`the engine refused ${checking}: ${where}${err.detail ?? err.message}`, conflicts);
      }
      loadFile(path, disk);
      restoreText(id, text);
      return { result: { conflicts, reason: null, applied: true, ...shownFiles(id === SETTINGS ? [] : [id], [], []) } };
    },
    // After the local server saved: the texts of `written` (IDs or SETTINGS)
    // are their files' now, and clean; `deleted` have no file. Returns the
    // written entities as they are now, and the settings.
    async markSaved({ written, deleted }) {
      const entities = [];
      for (const id of [...written, ...deleted]) before.delete(id);
      for (const id of written) {
        if (id === SETTINGS) {
          if (!world.settings().readOnly) world.markSettingsSaved();
        } else if (world.has(id)) {
          world.markSaved(id);
          entities.push(entityOf(id));
        }
      }
      for (const id of deleted) if (id !== SETTINGS && !world.has(id)) world.markSaved(id);
      return { result: { entities, settings: world.settings() } };
    },
    async snapshot() {
      return { result: await world.snapshot() };
    },
    // What a link holds, told by its first bytes: 'world', 'changes' or null.
    async linkKind({ text }) {
      juliet ??= await loadJuliet();
      return { result: await juliet.linkKind(text) };
    },
    // A change link read, not applied: the name of the world it was made
    // for and how many entities (or the settings) it changes.
    async readChanges({ text }) {
      juliet ??= await loadJuliet();
      const c = await juliet.decodeChanges(text);
      return { result: { world: c.world, count: (c.settings ? 1 : 0) + c.changed.length + c.added.length + c.deleted.length } };
    },
    // A change link of the pending edits: each entity (or the settings)
    // changed since it was last clean, against its text then (`before`, the
    // review's), named `name`.
    async changesLink({ name }) {
      const entries = [...before].map(([id, text]) => [id === SETTINGS ? null : id, text]);
      return { result: await world.changesText(entries, { name }) };
    },
    // Applies a change link over the open world (World#applyChanges): what
    // it changed as one undo step (`changes` [{ id, before, after }]), the
    // entities as they are now, the settings, and each entity it did not
    // apply: `conflicts` (its file changed since the link was made, it is
    // gone, or an added ID is taken) and `failed` (the engine refused it).
    async applyChangeLink({ text }) {
      const link = await juliet.decodeChanges(text);
      const ids = [...(link.settings ? [SETTINGS] : []), ...[link.changed, link.added, link.deleted].flat().map((e) => e.id)];
      const was = new Map(ids.map((id) => [id, id === SETTINGS || world.has(id) ? textOf(id) : null]));
      const result = await world.applyChanges(text);
      const now = (id) => (id === SETTINGS || world.has(id) ? textOf(id) : null);
      const changes = result.applied
        .map((e) => e.id ?? SETTINGS)
        .map((id) => ({ id, before: was.get(id), after: now(id) }))
        .filter((c) => !(c.before === null && c.after === null));
      for (const c of changes) if (!before.has(c.id)) before.set(c.id, c.before);
      const entities = changes.filter((c) => c.id !== SETTINGS).map(({ id }) => ({ id, entity: world.has(id) ? entityOf(id) : null }));
      const settings = world.settings();
      return { result: { world: link.world, changes, entities, settings, conflicts: result.conflicts, failed: result.failed } };
    },
    // Text typed for a value of field type `type`, checked by the engine's
    // own parser: { value, text } or { error, col } (Juliet#checkValue).
    // Needs no world: nothing changes.
    async check({ type, text, allowInf }) {
      juliet ??= await loadJuliet();
      return { result: juliet.checkValue(type, text, { allowInf }) };
    },
    async get({ id }) {
      return { result: entityOf(id) };
    },
    // Fields `names` of each entity in `ids` (what the map draws: lights,
    // references, rotations): per entity the values in that order (undefined for
    // a field its class lacks), null for an entity that is gone.
    async values({ ids, names }) {
      const out = ids.map((id) => {
        if (!world.has(id)) return null;
        const { fields } = world.get(id);
        return names.map((name) => fields[name]);
      });
      return { result: out };
    },
    // Edits return the entity's text before and after, for undo.
    async set({ id, field, value }) {
      const change = edit(id, () => world.set(id, field, value));
      return { result: { entity: entityOf(id), ...change } };
    },
    async setSetting({ field, value }) {
      const change = edit(SETTINGS, () => world.setSetting(field, value));
      return { result: { settings: world.settings(), ...change } };
    },
    async create({ className, position }) {
      const id = world.create(className, position);
      if (!before.has(id)) before.set(id, null);
      return { result: { entity: entityOf(id), before: null, after: world.entityBytes(id) } };
    },
    async remove({ id }) {
      const { before: text } = removeOne(id);
      return { result: { before: text, after: null } };
    },
    // Edits of several entities as one (a selection): each answers the
    // entities as they are now and `changes` [{ id, before, after }], the
    // texts for one undo step. All or nothing: the first refusal puts back
    // what the edit changed and throws.
    // [[id, field, value]]: each set as `set` does.
    async setMany({ sets }) {
      const changes = allOrNone(sets, ([id, field, value]) => ({ id, ...edit(id, () => world.set(id, field, value)) }));
      return { result: { entities: changes.map((c) => entityOf(c.id)), changes } };
    },
    async removeMany({ ids }) {
      return { result: { changes: allOrNone(ids, removeOne) } };
    },
    // Undo and redo of such a step: [[id, text or null]].
    async restoreMany({ items }) {
      const changes = allOrNone(items, ([id, text]) => {
        const was = id === SETTINGS || world.has(id) ? textOf(id) : null;
        restoreText(id, text);
        return { id, before: was, after: text };
      });
      // (A step of a change link may hold the settings too.)
      const entities = changes.map(({ id }) => ({ id, entity: id !== SETTINGS && world.has(id) ? entityOf(id) : null }));
      return { result: { entities, settings: world.settings() } };
    },
    // Copies of entities `ids` with new IDs, placed by `place` (addCopies).
    async duplicate({ ids, place }) {
      const sources = ids.map((id) => ({ id, className: world.get(id).class, text: world.entityBytes(id) }));
      return { result: addCopies(sources, { fresh: true, place }) };
    },
    // Entities from clipboard text ([{ text, line }]: lib/entityClipboard.js),
    // with their own IDs where those are free, new IDs where not; placed by
    // `place` (addCopies). Errors name the clipboard text's line.
    async paste({ entries, place }) {
      return { result: addCopies(readPasted(entries), { fresh: false, place }) };
    },
    // Undo and redo: the entity becomes `text` again (null: removed).
    async restore({ id, text }) {
      restoreText(id, text);
      if (id === SETTINGS) return { result: { settings: world.settings() } };
      return { result: { entity: world.has(id) ? entityOf(id) : null } };
    },
    // The current text of each entity (null if it is gone).
    async texts({ ids }) {
      return { result: ids.map((id) => (id === SETTINGS || world.has(id) ? textOf(id) : null)) };
    },
    // Re-applies unsaved work kept from an earlier session: [id, text or
    // null, dirty] per changed entity (the engine decides again whether each
    // is clean: its text may be what its file holds now). Returns the new
    // table (with the IDs of `added` last) and the changes that could not be
    // applied.
    async applyChanges({ changes, added }) {
      const failed = [];
      for (const [id, text] of changes) {
        try {
          noteBefore(id); // the review compares with what it was before the kept work
          restoreText(id, text);
        } catch (err) {
          failed.push({ id, message: err.message });
        }
      }
      const out = opened({}, added);
      out.result.failed = failed;
      return out;
    },
    // Saves into the in-memory folder and returns the bytes of every written
    // file, for the page to copy to the user's folder.
    // A failed save throws with what it did write and delete (err.written,
    // err.deleted), which then also need copying.
    async save() {
      let report;
      let failure = null;
      try {
        if (world.path === null) {
          worldDir = `/worlds/${++openCount}`;
          report = world.save(worldDir);
        } else {
          report = world.save();
        }
      } catch (err) {
        if (!err.written) throw err;
        report = { written: err.written, deleted: err.deleted };
        failure = { ...errorInfo(err), path: err.path && relativePath(err.path) };
      }
      // What the save wrote or deleted holds its file's text now.
      const deleted = new Set(report.deleted.map(relativePath));
      for (const id of [...before.keys()]) {
        const saved = id === SETTINGS || world.has(id) ? isClean(id) : !failure || deleted.has(entityPath(id));
        if (saved) before.delete(id);
      }
      return {
        result: {
          written: report.written.map(relativePath),
          deleted: report.deleted.map(relativePath),
          files: readSaved(report.written),
          stillDirty: dirtyIds(),
          settings: world.settings(),
          failure,
        },
      };
    },
    // A conflict settled for the page's version: the review of entity `id`
    // (or the settings) compares with `text`, the file's text on disk now
    // (null: deleted there), which the next save writes over.
    async rebaseReview({ id, text }) {
      before.set(id, text);
      return { result: true };
    },
    // The review of changes: for each of `ids` (entity IDs or SETTINGS) that
    // differs from what it was before its first change since it was last
    // clean (or since the world was opened), its kind ('new', 'deleted' or
    // 'modified') and what changed key by key, by the engine's diff of its
    // text then and now (Juliet#textDiff). Answers { entries: [{ id, kind,
    // className, changes: [{ key, old, new }] }] for the first `limit` that
    // differ (className only where the diff holds the class key), count: how
    // many differ in all }.
    async review({ ids, limit }) {
      const entries = [];
      let count = 0;
      for (const id of ids) {
        const now = id === SETTINGS || world.has(id) ? textOf(id) : null;
        const then = before.has(id) ? before.get(id) : now;
        if (then === now || (then !== null && now !== null && sameBytes(then, now))) continue;
        count++;
        if (entries.length >= limit) continue;
        const kind = then === null ? 'new' : now === null ? 'deleted' : 'modified';
        const path = id === SETTINGS ? SETTINGS_FILE : entityPath(id);
        let changes = [];
        let error = null;
        try {
          changes = juliet.textDiff(then ?? '', now ?? '', { path });
        } catch (err) {
          error = err.message;
        }
        const className = changes.find((c) => c.key === 'class');
        entries.push({ id, kind, className: className ? (className.new ?? className.old) : null, changes, error });
      }
      return { result: { entries, count } };
    },
    // The IDs of the entities that pass every term of a parsed query
    // (lib/query.js), each field read as the engine's canonical text: only
    // the fields the terms name, only for entities of the classes they allow.
    async query({ terms }) {
      const r = world.rows();
      const byClass = terms.filter((t) => t.field === 'class');
      const byField = terms.filter((t) => t.field !== 'class');
      // A class passes if its name does and it may have every field named (an
      // opaque class's keys are known per entity only).
      const classPasses = r.classNames.map((name) => {
        if (!byClass.every((t) => matchTerm(t, name))) return false;
        const fields = new Set(world.schema(name).map((f) => f.name));
        const opaque = world.opaqueClasses().includes(name);
        return opaque || byField.every((t) => fields.has(t.field) || BASE_FIELDS.includes(t.field));
      });
      const ids = [];
      for (let i = 0; i < r.count; i++) {
        if (!classPasses[r.classIndex[i]]) continue;
        const id = r.ids[i];
        const passes = byField.every((t) => {
          const text = world.fieldText(id, t.field);
          return text !== null && matchTerm(t, text);
        });
        if (passes) ids.push(id);
      }
      return { result: ids };
    },
    // Re-reads files written by an earlier save (when copying them failed).
    async read({ paths }) {
      return { result: readSaved(paths) };
    },
    async close() {
      if (world) world.close();
      world = null;
      return { result: true };
    },
  };

  // putFiles' answer for entities `ids` shown from their files: each as it
  // is now (null: none), the settings, the diagnostics of the texts that did
  // not load, every reference that names no entity now, the paths skipped.
  function shownFiles(ids, diagnostics, skipped) {
    const entities = ids.map((id) => ({ id, entity: world.has(id) ? entityOf(id) : null }));
    return { entities, settings: world.settings(), diagnostics, references: referenceDiagnostics(), skipped };
  }

  // Entity `id` as the page shows it: world.get's answer, its `name`
  // (lib/names.js; '' for none) and its `parent` (lib/hierarchy.js; null
  // for none), as the table's columns at open have them.
  function entityOf(id) {
    const entity = world.get(id);
    const schema = world.schema(entity.class);
    const field = nameField(schema);
    const parent = hasParentField(schema) ? (entity.fields[PARENT_FIELD] ?? null) : null;
    return { ...entity, name: field ? (entity.fields[field] ?? '') : '', parent };
  }

  // True if the entity (or the settings) of the file at `path` changed in the
  // page since it was last clean (the page's own reading of file names, as
  // state/diskFiles.js's: the engine checks the name when it loads the file).
  function isEdited(path) {
    if (path === SETTINGS_FILE) return world.settings().dirty;
    const id = idOfPath(path);
    return id !== null && world.has(id) && world.get(id).dirty;
  }

  // Runs `change` on entity `id` (or the settings) and returns its text
  // before and after. A change that leaves the text as it was (a value typed
  // again) is no edit in the inspector, whatever the engine's rule (spec 6.3:
  // any set marks dirty): the entity is put back as it was, clean if it was.
  function edit(id, change) {
    noteBefore(id);
    const text = textOf(id);
    change();
    const after = textOf(id);
    if (sameBytes(text, after)) restoreText(id, text);
    return { before: text, after };
  }

  // Removes entity `id`; returns its change for undo.
  function removeOne(id) {
    noteBefore(id);
    const text = world.has(id) ? world.entityBytes(id) : null;
    world.remove(id);
    return { id, before: text, after: null };
  }

  // Runs `step` on each of `items`; each returns the change it made ({ id,
  // before, after }). If one throws, the entities changed so far become
  // their texts before again and the error is thrown.
  function allOrNone(items, step) {
    const changes = [];
    try {
      for (const item of items) changes.push(step(item));
    } catch (err) {
      for (const c of changes.reverse()) restoreText(c.id, c.before);
      throw err;
    }
    return changes;
  }

  const encoder = new TextEncoder();

  // The pasted entities' IDs and classes, read by the engine from their
  // texts (in a world of their own: the open one is not touched). A text the
  // engine refuses throws, naming its line in the clipboard text.
  function readPasted(entries) {
    const scratch = juliet.newWorld({ ...IN_MEMORY, capacity: 16 });
    try {
      return entries.map(({ text, line }) => {
        const bytes = encoder.encode(text);
        let id;
        try {
          id = scratch.loadEntityText(bytes, { path: 'clipboard' });
        } catch (err) {
          throw atClipboardLine(err, line);
        }
        const className = scratch.get(id).class;
        scratch.remove(id); // the next may carry the same ID
        return { id, className, text: bytes, line };
      });
    } finally {
      scratch.close();
    }
  }

  // The engine's error about an entity's text as an error about the
  // clipboard text that entity starts on line `line` of.
  function atClipboardLine(err, line) {
    if (!err.line) return err;
    const at = err.line + line - 1;
    const out = new Error(`clipboard:${at}:${err.col}: ${err.detail ?? err.message}`);
    Object.assign(out, { code: err.code, path: 'clipboard', line: at, col: err.col, detail: err.detail });
    return out;
  }

  // Adds entities [{ id, className, text, line? }] to the world: each keeps
  // its ID unless `fresh`, or the ID is taken (by an entity of the world or
  // an earlier one of these). `place` is { offset } (a vec3 each one given
  // a new ID is moved by) or { at } (all move together so that the middle
  // of their bounds lands at `at`, [x, y, z] with null for an axis they
  // keep). A reference among them to one given a new ID points at it;
  // references to others are kept. All or nothing. Returns { entities,
  // changes, ids } (ids: the new entities', in order).
  function addCopies(sources, { fresh, place }) {
    const renamed = new Map(); // ID in the text -> new ID
    const ids = [];
    try {
      for (const s of sources) {
        let id = s.id;
        if (fresh || world.has(id) || ids.includes(id)) {
          id = mint(s.className);
          renamed.set(s.id, id);
        } else {
          noteBefore(id);
        }
        ids.push(id);
      }
      sources.forEach((s, i) => {
        const id = ids[i];
        try {
          world.restoreEntityText(id, id === s.id ? s.text : (withId(s.text, id) ?? s.text));
        } catch (err) {
          throw s.line ? atClipboardLine(err, s.line) : err;
        }
        const { class: className, fields } = world.get(id);
        for (const name of refFields(className)) {
          const target = renamed.get(fields[name]);
          if (target) world.set(id, name, target);
        }
      });
      const offset = place.at ? offsetTo(ids, place.at) : place.offset;
      const changes = ids.map((id, i) => {
        if (place.at || id !== sources[i].id) {
          world.set(
            id,
            'position',
            world.get(id).position.map((v, k) => v + offset[k]),
          );
        }
        return { id, before: null, after: world.entityBytes(id) };
      });
      return { entities: ids.map(entityOf), changes, ids };
    } catch (err) {
      for (const id of ids) if (world.has(id)) world.remove(id);
      throw err;
    }
  }

  // The move that brings the middle of the bounds of entities `ids` to
  // `at` (0 on an axis `at` has null for), to 2 decimals.
  function offsetTo(ids, at) {
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (const id of ids) {
      world.get(id).position.forEach((v, k) => {
        min[k] = Math.min(min[k], v);
        max[k] = Math.max(max[k], v);
      });
    }
    return at.map((v, k) => (v === null ? 0 : Math.round((v - (min[k] + max[k]) / 2) * 100) / 100));
  }

  // A new entity (whose text the caller then restores) with an ID minted by
  // the engine's own rule (docs/format.md, IDs); it was not there before.
  function mint(className) {
    let id;
    try {
      id = world.create(className);
    } catch {
      id = world.create(juliet.classes()[0]); // a class this build does not know
    }
    before.set(id, null);
    return id;
  }

  // Names of the entity_ref fields of class `className` in the open world.
  function refFields(className) {
    try {
      return world
        .schema(className)
        .filter((f) => f.type === 'entity_ref')
        .map((f) => f.name);
    } catch {
      return []; // a class no build describes: its keys are kept as text
    }
  }

  // True if live entity `id` (or the settings) holds its file's text.
  function isClean(id) {
    return id === SETTINGS ? !world.settings().dirty : !world.get(id).dirty;
  }

  function relativePath(path) {
    return worldDir && path.startsWith(worldDir + '/') ? path.slice(worldDir.length + 1) : path;
  }

  function readSaved(paths) {
    return paths.map((path) => {
      const rel = relativePath(path);
      return { path: rel, bytes: juliet.readFile(`${worldDir}/${rel}`) };
    });
  }

  return async function run(op, args) {
    if (!Object.hasOwn(ops, op)) throw new Error(`unknown engine operation '${op}'`);
    if (!WITHOUT_WORLD.has(op) && !world) throw new Error('No world is open');
    return ops[op](args ?? {});
  };
}
