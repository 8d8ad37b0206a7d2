// FNV-1a over a string's UTF-16 code units: a quick, well-spread 32-bit
// hash of short texts (class names, entity IDs), the same in every run.
// juliet-world's pathIndex hashes UTF-8 bytes the same way.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The hash of `text`, an unsigned 32-bit integer. */
export function textHash(text) {
  let hash = FNV_OFFSET;
  for (let k = 0; k < text.length; k++) hash = Math.imul(hash ^ text.charCodeAt(k), FNV_PRIME);
  return hash >>> 0;
}
