// A quat field (x y z w) shown and edited as yaw, pitch and roll in degrees.
//
// Convention: Y is up (the map's top view shows X and Z), right-handed.
// Yaw turns about +Y, pitch about +X, roll about +Z, each counter-clockwise
// seen from the axis' positive end; the rotation is
//   q = yaw(Y) * pitch(X) * roll(Z)
// (roll applied first, then pitch, then yaw, about the fixed axes). Angles
// come back with yaw and roll in (-180, 180] and pitch in [-90, 90]; at
// pitch +/-90 yaw and roll turn about the same axis and roll is taken as 0.
// The quat made from angles is normalized, with w >= 0.

const RAD = Math.PI / 180;

/** Digits after the point an angle is shown with (0.01 degree). */
export const ANGLE_DIGITS = 2;

function multiply([ax, ay, az, aw], [bx, by, bz, bw]) {
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

// The rotation by `degrees` about the unit axis (0 = X, 1 = Y, 2 = Z).
function about(axis, degrees) {
  const q = [0, 0, 0, Math.cos((degrees * RAD) / 2)];
  q[axis] = Math.sin((degrees * RAD) / 2);
  return q;
}

// q normalized, with w >= 0.
function normalized(q) {
  const n = Math.hypot(...q) * (q[3] < 0 ? -1 : 1);
  return q.map((v) => v / n + 0); // + 0: no -0 in the stored text
}

/** The normalized quat [x, y, z, w] (w >= 0) of yaw, pitch and roll in degrees. */
export function quatOfAngles([yaw, pitch, roll]) {
  return normalized(multiply(multiply(about(1, yaw), about(0, pitch)), about(2, roll)));
}

/** The normalized quat (w >= 0) of `quat` turned by `turn` about the world's
 * axes (a zero `quat` is taken as no rotation). */
export function turnedQuat(turn, quat) {
  return normalized(multiply(turn, Math.hypot(...quat) > 0 ? quat : [0, 0, 0, 1]));
}

/**
 * [yaw, pitch, roll] in degrees of quat [x, y, z, w] (normalized first; a
 * zero quat is taken as no rotation).
 */
export function anglesOfQuat(quat) {
  const n = Math.hypot(...quat);
  if (!(n > 0) || !Number.isFinite(n)) return [0, 0, 0];
  const [x, y, z, w] = quat.map((v) => v / n);
  // Entries of the rotation matrix R = Ry(yaw) Rx(pitch) Rz(roll) that the
  // angles are read from (R[1][2] = -sin(pitch)).
  const r02 = 2 * (x * z + y * w);
  const r22 = 1 - 2 * (x * x + y * y);
  const r12 = 2 * (y * z - x * w);
  const r10 = 2 * (x * y + z * w);
  const r11 = 1 - 2 * (x * x + z * z);
  const cosPitch = Math.hypot(r02, r22);
  // atan2 rather than asin: well conditioned near +/-90 degrees.
  const pitch = Math.atan2(-r12, cosPitch);
  let yaw;
  let roll;
  if (cosPitch < 1e-6) {
    // Gimbal lock: only yaw - roll (or yaw + roll) is defined.
    const r00 = 1 - 2 * (y * y + z * z);
    const r20 = 2 * (x * z - y * w);
    yaw = Math.atan2(-r20, r00);
    roll = 0;
  } else {
    yaw = Math.atan2(r02, r22);
    roll = Math.atan2(r10, r11);
  }
  return [yaw, pitch, roll].map((a) => a / RAD);
}

/**
 * The angles shown for `quat`: `typed` (the angles last typed, or null)
 * while they give that rotation, else anglesOfQuat(quat). A rotation has
 * more than one triple (pitch 120 is yaw 180, pitch 60, roll 180): the
 * one typed stays as typed.
 */
export function anglesShown(quat, typed) {
  const n = Math.hypot(...quat);
  if (typed && n > 0) {
    const q = quatOfAngles(typed);
    if (Math.abs(q.reduce((sum, v, i) => sum + v * quat[i], 0)) / n > 1 - 1e-6) return typed;
  }
  return anglesOfQuat(quat);
}

/** An angle as shown: ANGLE_DIGITS after the point at most, no -0, 180 for -180. */
export function formatAngle(degrees) {
  let text = String(Number(degrees.toFixed(ANGLE_DIGITS)) + 0);
  if (text === '-180') text = '180';
  return text;
}
