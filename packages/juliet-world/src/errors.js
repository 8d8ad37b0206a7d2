// errors.js - the one error class of the API: a failure the C engine
// reported (status name, message and, where one applies, the file, line and
// column), or a state this API refuses, such as a closed world.

/**
 * An error reported by the C engine (or by this API for a state it refuses,
 * such as a closed world).
 */
export class JulietError extends Error {
  /**
   * @param {string} code lower-case status name ('parse', 'not_found', ...)
   * @param {string} message what went wrong
   * @param {{path?: string|null, line?: number, col?: number}} [where]
   */
  constructor(code, message, where = {}) {
    const path = where.path || null;
    const line = where.line || 0;
    const col = where.col || 0;
    let prefix = '';
    if (path) prefix = path + (line ? `:${line}${col ? `:${col}` : ''}` : '') + ': ';
    super(prefix + message);
    this.name = 'JulietError';
    this.code = code;
    this.path = path;
    this.line = line;
    this.col = col;
    this.detail = message;
  }
}
