// The legend of a view of the level (the 2D map, the 3D view): each class
// with entities in the world, in its colour.
import { classColor } from '../lib/classColor.js';
import { classCounts } from '../state/listView.js';

export function Legend() {
  const counts = classCounts.value;
  return (
    <ul class="legend" aria-label="Classes">
      {Object.keys(counts)
        .filter((name) => counts[name] > 0)
        .map((name) => (
          <li key={name}>
            <span class="swatch" style={{ background: classColor(name) }} />
            {name}
          </li>
        ))}
    </ul>
  );
}
