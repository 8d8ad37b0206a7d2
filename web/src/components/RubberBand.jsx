// The rubber band of a view of the level (the 2D map, the 3D view): the
// rectangle a drag from empty space spans, `band` { x0, y0, x1, y1 } in the
// view's CSS pixels.
export function RubberBand({ band }) {
  return (
    <div
      class="map-band"
      style={{
        left: `${Math.min(band.x0, band.x1)}px`,
        top: `${Math.min(band.y0, band.y1)}px`,
        width: `${Math.abs(band.x1 - band.x0)}px`,
        height: `${Math.abs(band.y1 - band.y0)}px`,
      }}
    />
  );
}
