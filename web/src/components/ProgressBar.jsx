// Progress of long work, with counts.
import { progress } from '../state/progress.js';

export function ProgressBar() {
  const p = progress.value;
  if (!p) return null;
  const known = p.total > 0;
  return (
    <div class="progress" role="status">
      <label>
        <span>
          {p.label}
          {known ? ` ${p.done.toLocaleString('en')} / ${p.total.toLocaleString('en')}` : p.done ? ` ${p.done.toLocaleString('en')}` : '…'}
        </span>
        <progress value={known ? p.done : undefined} max={known ? p.total : undefined} />
      </label>
    </div>
  );
}
