// wasm.js - the boundary with the C engine: every export of
// c/wasm/exports.json wrapped once (cwrap) from the table below, the
// helpers that move bytes and strings across, and C's error records turned
// into JulietErrors. Memory handed to C is freed in `finally`; bulk data
// comes back as pointer + length and is copied at once; views of the wasm
// memory are taken fresh after every call that may grow it.
import { JulietError } from './errors.js';

const encoder = new TextEncoder();

/** Every C export: name -> [return type, [argument types]] for cwrap. */
const EXPORTS = {
  jlw_last_error: ['number', []],
  jlw_error_status: ['number', ['number']],
  jlw_error_line: ['number', ['number']],
  jlw_error_col: ['number', ['number']],
  jlw_error_path: ['number', ['number']],
  jlw_error_message: ['number', ['number']],
  jlw_status_name: ['number', ['number']],
  jlw_heap_used: ['number', []],
  jlw_init: ['number', []],
  jlw_class_count: ['number', ['number']],
  jlw_class_name: ['number', ['number', 'number']],
  jlw_class_version: ['number', ['number', 'number']],
  jlw_class_field_count: ['number', ['number', 'number']],
  jlw_class_field_name: ['number', ['number', 'number', 'number']],
  jlw_class_field_type: ['number', ['number', 'number', 'number']],
  jlw_class_field_flags: ['number', ['number', 'number', 'number']],
  jlw_class_field_default: ['number', ['number', 'number', 'number']],
  jlw_class_field_enum_count: ['number', ['number', 'number', 'number']],
  jlw_class_field_enum_name: ['number', ['number', 'number', 'number', 'number']],
  jlw_settings_kind: ['number', []],
  jlw_world_new: ['number', ['number', 'number']],
  jlw_world_free: [null, ['number']],
  jlw_world_load: ['number', ['number', 'string']],
  jlw_world_check_references: ['number', ['number']],
  jlw_world_reference_count: ['number', ['number']],
  jlw_world_missing_reference: ['number', ['number', 'number']],
  jlw_world_load_entity_text: ['number', ['number', 'string', 'number', 'number', 'number', 'number']],
  jlw_world_mark_all_dirty: [null, ['number']],
  jlw_world_count: ['number', ['number']],
  jlw_world_rows: ['number', ['number', 'number', 'number', 'number', 'number', 'number']],
  jlw_world_field_texts: ['number', ['number', 'string', 'number', 'number', 'number']],
  jlw_entity_state: ['number', ['number', 'number', 'number']],
  jlw_entity_text: ['number', ['number', 'number', 'number', 'number']],
  jlw_entity_set: ['number', ['number', 'number', 'number', 'string', 'number', 'number']],
  jlw_entity_create: ['number', ['number', 'number', 'number', 'number', 'number', 'number']],
  jlw_entity_remove: ['number', ['number', 'number', 'number']],
  jlw_world_restore_entity_text: ['number', ['number', 'number', 'number', 'number', 'number']],
  jlw_world_reload_file_text: ['number', ['number', 'string', 'number', 'number', 'number']],
  jlw_world_reload_file: ['number', ['number', 'string', 'string', 'number', 'number', 'number']],
  jlw_world_load_class_text: ['number', ['number', 'string', 'number', 'number']],
  jlw_entity_mark_saved: ['number', ['number', 'number', 'number']],
  jlw_settings_state: ['number', ['number']],
  jlw_settings_text: ['number', ['number', 'number']],
  jlw_settings_set: ['number', ['number', 'string', 'number', 'number']],
  jlw_world_load_settings_text: ['number', ['number', 'string', 'number', 'number', 'number']],
  jlw_world_restore_settings_text: ['number', ['number', 'number', 'number']],
  jlw_settings_mark_saved: ['number', ['number']],
  jlw_world_save: ['number', ['number', 'string']],
  jlw_world_save_new: ['number', ['number', 'string']],
  jlw_save_written_count: ['number', []],
  jlw_save_written: ['number', ['number']],
  jlw_save_deleted_count: ['number', []],
  jlw_save_deleted: ['number', ['number']],
  jlw_save_failed_count: ['number', []],
  jlw_save_conflict_count: ['number', []],
  jlw_save_conflict: ['number', ['number']],
  jlw_save_notice: ['number', []],
  jlw_world_diagnostic_count: ['number', ['number']],
  jlw_world_diagnostic: ['number', ['number', 'number']],
  jlw_snapshot_encode: ['number', ['number', 'number']],
  jlw_snapshot_decode: ['number', ['number', 'number', 'number']],
  jlw_snapshot_max_bytes: ['number', []],
  jlw_snapshot_max_text: ['number', []],
  jlw_base64url_encoded_size: ['number', ['number']],
  jlw_base64url_encode: ['number', ['number', 'number', 'number']],
  jlw_base64url_decoded_size_max: ['number', ['number']],
  jlw_base64url_decode: ['number', ['number', 'number', 'number', 'number', 'number']],
  jlw_snapshot_link_payload: [null, ['number', 'number', 'number', 'number']],
  jlw_changes_encode: ['number', ['string', 'number', 'number', 'number']],
  jlw_changes_decode: ['number', ['number', 'number', 'number']],
  jlw_changes_apply: ['number', ['number', 'number', 'number', 'number', 'number']],
  jlw_entity_get: ['number', ['number', 'number', 'number', 'string']],
  jlw_settings_get: ['number', ['number', 'string']],
  jlw_entity_base_version: ['number', []],
  jlw_value_check: ['number', ['string', 'number', 'number', 'number']],
  jlw_class_field_check: ['number', ['number', 'number', 'number', 'number', 'number']],
  // Opaque entities: classes files name that no build describes.
  jlw_class_opaque: ['number', ['number', 'number']],
  jlw_entity_kept_count: ['number', ['number', 'number', 'number']],
  jlw_entity_kept_key: ['number', ['number', 'number', 'number', 'number']],
  jlw_world_warning_count: ['number', ['number']],
  jlw_world_warning: ['number', ['number', 'number']],
  jlw_text_diff: ['number', ['number', 'number', 'number', 'number', 'string', 'number', 'number']],
  jlw_text_merge: [
    'number',
    ['number', 'number', 'number', 'number', 'number', 'number', 'string', 'number', 'number', 'number', 'number'],
  ],
};

/** The names of the C exports this module wraps (for tests). */
export const exportNames = Object.freeze(Object.keys(EXPORTS));

/** The wrapped exports (`c`) of one module instance and the memory helpers around them. */
export class Wasm {
  /** @param {object} module the Emscripten module instance */
  constructor(module) {
    this.module = module;
    const c = {};
    for (const [name, [ret, args]] of Object.entries(EXPORTS)) {
      if (typeof module['_' + name] !== 'function') throw new Error(`the wasm module lacks ${name}`);
      c[name] = module.cwrap(name, ret, args);
    }
    this.c = c;
    // Room for the small out-parameters of one call (IDs, sizes): calls
    // never nest, so one block serves them all without a malloc per call.
    this.out = module._malloc(16);
    if (!this.out) throw new Error('cannot allocate the wasm out-parameter block');
  }

  /** A NUL-terminated string C returned (static or short-lived), copied; null for NULL. */
  string(ptr) {
    return ptr ? this.module.UTF8ToString(ptr) : null;
  }

  malloc(size) {
    const ptr = this.module._malloc(Math.max(1, size));
    if (!ptr) throw new JulietError('out_of_memory', `cannot allocate ${size} bytes in the wasm heap`);
    return ptr;
  }

  free(ptr) {
    if (ptr) this.module._free(ptr);
  }

  /** Copies bytes into a new malloc'd block. */
  copyIn(bytes) {
    const ptr = this.malloc(bytes.length);
    this.module.HEAPU8.set(bytes, ptr);
    return ptr;
  }

  /** Copies size bytes at ptr out of the wasm memory. */
  copyOut(ptr, size) {
    return this.module.HEAPU8.slice(ptr, ptr + size);
  }

  /** The bytes of a block a C export made (its size at this.out), copied
   * out and the block freed; no block: the export's error, thrown. */
  takeBlock(block) {
    if (!block) throw this.lastError(0);
    try {
      return this.copyOut(block, this.u32(this.out));
    } finally {
      this.free(block);
    }
  }

  u32(ptr) {
    return this.module.HEAPU32[ptr >>> 2];
  }

  /** The ID an export wrote into the out block (lo, then hi). */
  outHalves() {
    return [this.u32(this.out), this.u32(this.out + 4)];
  }

  /**
   * Copies text (a string, encoded as UTF-8, or bytes as they are) into the
   * wasm heap and returns call(textPtr, size); the copy is freed either way.
   * Large text never goes through cwrap's string arguments, which live on
   * the small wasm stack.
   */
  withText(text, call) {
    const bytes = typeof text === 'string' ? encoder.encode(text) : text;
    const textPtr = this.copyIn(bytes);
    try {
      return call(textPtr, bytes.length);
    } finally {
      this.free(textPtr);
    }
  }

  /** withText for several texts: call(ptr0, size0, ptr1, size1, ...), every copy freed either way. */
  withTexts(texts, call, args = []) {
    if (args.length === 2 * texts.length) return call(...args);
    return this.withText(texts[args.length / 2], (ptr, size) => this.withTexts(texts, call, [...args, ptr, size]));
  }

  /** A JulietError from a jl_error record. */
  errorFrom(errPtr, fallbackStatus) {
    const c = this.c;
    const status = c.jlw_error_status(errPtr) || fallbackStatus;
    const path = this.string(c.jlw_error_path(errPtr)) || null;
    return new JulietError(this.statusName(status), this.string(c.jlw_error_message(errPtr)) || 'failed', {
      path,
      line: c.jlw_error_line(errPtr),
      col: c.jlw_error_col(errPtr),
    });
  }

  /** The JulietError of the last failed export. */
  lastError(status) {
    return this.errorFrom(this.c.jlw_last_error(), status);
  }

  statusName(status) {
    return this.string(this.c.jlw_status_name(status)) || `status_${status}`;
  }
}
