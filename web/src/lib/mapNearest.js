// Moving between entities on the map by keyboard: the entity nearest to a
// point, and the nearest one in a direction (as spatial navigation on a TV
// or a game menu picks the next item).

// How much a step sideways costs against a step in the asked direction: an
// entity straight ahead wins over a nearer one off to the side.
const SIDEWAYS = 3;

/**
 * Index k (in 0..n-1) of the point (xs[k], ys[k]) nearest to (x, y),
 * -1 if n is 0.
 */
export function nearestPoint(xs, ys, n, x, y) {
  let best = -1;
  let bestD = Infinity;
  for (let k = 0; k < n; k++) {
    const d = (xs[k] - x) ** 2 + (ys[k] - y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best;
}

/**
 * Index k of the point nearest to (x, y) in direction (dx, dy) (a unit
 * vector): points behind or level with (x, y) in that direction do not
 * count, a point off to the side counts its sideways distance SIDEWAYS
 * times. Index `skip` (the point itself) is never chosen. -1 if no point
 * lies in that direction.
 */
export function nearestInDirection(xs, ys, n, x, y, dx, dy, skip = -1) {
  let best = -1;
  let bestCost = Infinity;
  for (let k = 0; k < n; k++) {
    if (k === skip) continue;
    const ex = xs[k] - x;
    const ey = ys[k] - y;
    const along = ex * dx + ey * dy;
    if (along <= 1e-9) continue;
    const cost = along + SIDEWAYS * Math.abs(ex * dy - ey * dx);
    if (cost < bestCost) {
      bestCost = cost;
      best = k;
    }
  }
  return best;
}
