// The open world: where it comes from, its name, its classes and settings,
// the diagnostics of its files, and whether it is being opened or saved.
// Only signals: open.js, edits.js, save.js and unsaved.js change them.
import { computed, signal } from '@preact/signals';
import { nameRecord } from 'juliet-world';

export const status = signal('empty'); // 'empty' | 'opening' | 'ready' | 'saving'
export const worldName = signal('');
// { kind: 'sample' | 'folder' | 'upload' | 'link', key, handle?, text? }: key
// names the world for the unsaved work kept in browser storage (keep.js).
export const source = signal(null);
// Class name -> [{ name, type, default, ... }], a nameRecord (juliet-world).
export const schemas = signal(nameRecord());
export const classNames = computed(() => Object.keys(schemas.value));
export const diagnostics = signal([]);
// Names of the world's classes that no build describes: their entities are
// kept as text (opaque), which Diagnostics says once per class.
export const opaqueClasses = signal([]);

// The world settings: { fields, dirty, readOnly, failed } (world.settings())
// and their fields [{ name, type, default, ... }].
export const settings = signal(null);
export const settingsSchema = signal([]);

export const busy = computed(() => status.value === 'opening' || status.value === 'saving');
