// A folder upload (<input webkitdirectory>) dressed as a button; the chosen
// files open as a world. `inputRef` gives the caller the input, to open the
// chooser from elsewhere. `children` replaces the label as the visible text
// (a shorter one in a narrow toolbar); the label stays the input's name.
import { openUpload } from '../state/open.js';
import { busy } from '../state/world.js';

export function UploadFolder({ label, inputRef, children }) {
  return (
    <label class="button secondary" title={children ? label : undefined}>
      {children ?? label}
      <input
        aria-label={children ? label : undefined}
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
