// The tooltip naming the entity under the pointer in a view of the level
// (the 2D map, the 3D view): its name when its class has one, its ID and
// class, beside the pointer and turned to stay inside the view.
import { rowClass, table } from '../state/table.js';

// `hover` { row, x, y }: the entity's table row and the pointer in the
// view's CSS pixels; `size` the view's [width, height].
export function EntityTooltip({ hover, size: [w, h] }) {
  const style = {};
  if (hover.x < w - 240) style.left = `${hover.x + 14}px`;
  else style.right = `${w - hover.x + 14}px`;
  if (hover.y < h - 80) style.top = `${hover.y + 14}px`;
  else style.bottom = `${h - hover.y + 14}px`;
  return (
    <div class="map-tooltip" role="tooltip" style={style}>
      {table.names[hover.row] && <strong>{table.names[hover.row]}</strong>}
      <code>{table.ids[hover.row]}</code>
      <span class="muted">{rowClass(hover.row)}</span>
    </div>
  );
}
