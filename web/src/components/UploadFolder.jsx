// A folder upload (<input webkitdirectory>) dressed as a button; the chosen
// files open as a world. `inputRef` gives the caller the input, to open the
// chooser from elsewhere.
import { openUpload } from '../state/open.js';
import { busy } from '../state/world.js';

export function UploadFolder({ label, inputRef }) {
  return (
    <label class="button secondary">
      {label}
      <input
        ref={inputRef}
        class="visually-hidden"
        type="file"
        webkitdirectory={true}
        multiple
        disabled={busy.value}
        onChange={(e) => {
          const input = e.currentTarget;
          if (input.files.length) openUpload(input.files).finally(() => (input.value = ''));
        }}
      />
    </label>
  );
}
