// Save: writes exactly the pending changes. A world served by the local
// server is saved by the server into its directory (serverSave.js).
// Otherwise the engine saves into its in-memory copy of the world; the
// written files are then copied into the user's folder (or offered as a
// download). Whatever could not be copied stays pending, with the reason
// shown.
import { batch, signal } from '@preact/signals';
import { plural } from '../lib/plural.js';
import { getEngine } from './engine.js';
import { emit } from './events.js';
import { canPickFolder, downloadChanges, ensureWritable, pickFolder, writeToFolder } from './folders.js';
import { errorMessage, fail, notice } from './messages.js';
import { noteEngineSaved, noteFlushed, pending } from './pending.js';
import { endProgress, reportProgress } from './progress.js';
import { selected } from './selection.js';
import { saveToServer } from './serverSave.js';
import { setDirtyIds } from './table.js';
import { settings, source, status, worldName } from './world.js';

export const saveReport = signal(null); // { written, deleted, target } of the last save

export async function save() {
  if (status.value !== 'ready') return;
  const before = pending.value;
  if (before.length === 0) {
    notice.value = 'Nothing to save';
    return;
  }
  if (source.value.kind === 'server') return saveServed(before);
  // A world from a link has no folder yet: ask for one (or download it all).
  let newFolder = null;
  if (source.value.kind === 'link' && canPickFolder()) {
    try {
      newFolder = await pickFolder();
    } catch (err) {
      if (err?.name !== 'AbortError') fail('Could not open the folder', err);
      else notice.value = 'Choose a folder to save the shared level into';
      return;
    }
  }
  // Ask for write access while the click that asked to save still counts
  // as the user's gesture.
  if (source.value.kind === 'folder') {
    try {
      await ensureWritable(source.value.handle);
    } catch (err) {
      fail('Save failed, nothing was written', err);
      return;
    }
  }
  batch(() => {
    status.value = 'saving';
    errorMessage.value = null;
    notice.value = null;
  });
  reportProgress('Saving', 0, before.length);
  let report;
  try {
    report = await getEngine().save();
  } catch (err) {
    status.value = 'ready';
    endProgress();
    fail('Save failed, nothing was written', err);
    return;
  }
  const files = report.files;
  let stale;
  batch(() => {
    stale = noteEngineSaved(before, report);
    setDirtyIds(report.stillDirty);
    settings.value = report.settings;
    const entity = selected.value;
    if (entity) selected.value = { ...entity, dirty: report.stillDirty.includes(entity.id) };
  });
  try {
    if (stale.staleWrites.length) files.push(...(await getEngine().read(stale.staleWrites)));
    const allDeletes = [...report.deleted, ...stale.staleDeletes];
    if (newFolder) source.value = { kind: 'folder', key: `folder:${newFolder.name}`, handle: newFolder };
    else if (source.value.kind === 'link') source.value = { kind: 'upload', key: `upload:${worldName.value}` };
    const src = source.value;
    let target;
    if (files.length === 0 && allDeletes.length === 0) {
      target = null;
    } else if (src.kind === 'folder') {
      await ensureWritable(src.handle);
      await writeToFolder(src.handle, files, allDeletes);
      target = `the folder "${src.handle.name}"`;
    } else {
      target = `the download ${downloadChanges(worldName.value, files, allDeletes)}`;
    }
    const written = files.map((f) => f.path);
    batch(() => {
      noteFlushed();
      saveReport.value = { written, deleted: allDeletes, target };
      if (report.failure) {
        fail(`Save failed for some files, ${plural(pending.value.length, 'change')} still pending`, report.failure);
      } else {
        notice.value = `Saved ${plural(written.length, 'file')} and deleted ${plural(allDeletes.length, 'file')}${target ? ` in ${target}` : ''}`;
      }
    });
  } catch (err) {
    // Entities whose files did not reach the folder still show as unsaved.
    const unsaved = noteFlushed(err.done ?? []);
    setDirtyIds([...report.stillDirty, ...unsaved]);
    fail(`Save failed, ${plural(pending.value.length, 'change')} still pending`, err);
  } finally {
    status.value = 'ready';
    endProgress();
    emit('saved', {});
  }
}

// Saves through the local server; reports what it wrote, and the files it
// left alone because they changed on disk (conflicts) or failed.
async function saveServed(before) {
  batch(() => {
    status.value = 'saving';
    errorMessage.value = null;
    notice.value = null;
  });
  reportProgress('Saving', 0, before.length);
  try {
    const report = await saveToServer(before);
    const target = `the folder "${worldName.value}"`;
    batch(() => {
      saveReport.value = { written: report.written, deleted: report.deleted, target };
      const merged = report.merged.length
        ? `; merged ${plural(report.merged.length, 'file')} changed on disk with this page's changes: Save again to write them`
        : '';
      notice.value = `Saved ${plural(report.written.length, 'file')} and deleted ${plural(report.deleted.length, 'file')} in ${target}${merged}`;
      const [first] = report.failures;
      if (first) {
        fail(`Save failed for ${plural(report.failures.length, 'file')}, ${plural(pending.value.length, 'change')} still pending`, {
          message: `${first.path ?? ''}: ${first.message}`,
        });
      } else if (report.conflicts) {
        fail(`${plural(report.conflicts, 'file')} changed on disk since loaded, not written: pick what to keep under Conflicts`);
      }
    });
  } catch (err) {
    fail('Save failed, nothing was written', err);
  } finally {
    status.value = 'ready';
    endProgress();
    emit('saved', {});
  }
}
