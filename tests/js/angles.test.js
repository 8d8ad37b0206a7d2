// Yaw, pitch and roll in degrees <-> the quat a quat field stores
// (web/src/lib/angles.js): the convention, round trips of typed angles
// through the stored float32 quat at the precision shown, and the edge
// cases (gimbal lock, a zero or unnormalized quat).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anglesOfQuat, anglesShown, formatAngle, quatOfAngles, turnedQuat } from '../../web/src/lib/angles.js';

// v rotated by the unit quat q.
function rotate([x, y, z, w], v) {
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [v[0] + w * t[0] + y * t[2] - z * t[1], v[1] + w * t[1] + z * t[0] - x * t[2], v[2] + w * t[2] + x * t[1] - y * t[0]];
}

function assertNear(actual, expected, what, eps = 1e-9) {
  actual.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < eps, `${what}: ${actual} != ${expected}`));
}

test('yaw turns about +Y, pitch about +X, roll about +Z, counter-clockwise, roll first', () => {
  assertNear(rotate(quatOfAngles([90, 0, 0]), [0, 0, 1]), [1, 0, 0], 'yaw 90 takes +Z to +X');
  assertNear(rotate(quatOfAngles([0, 90, 0]), [0, 1, 0]), [0, 0, 1], 'pitch 90 takes +Y to +Z');
  assertNear(rotate(quatOfAngles([0, 0, 90]), [1, 0, 0]), [0, 1, 0], 'roll 90 takes +X to +Y');
  // Roll, then pitch, then yaw: +X rolls to +Y, pitches to +Z, yaws to +X.
  assertNear(rotate(quatOfAngles([90, 90, 90]), [1, 0, 0]), [1, 0, 0], 'composition order');
  assert.deepEqual(quatOfAngles([0, 0, 0]), [0, 0, 0, 1]);
});

test('the quat of angles is normalized with w >= 0 and never -0', () => {
  for (const angles of [
    [180, 0, 0],
    [-180, 45, 170],
    [359, -89, 200],
    [0, 0, -0],
  ]) {
    const q = quatOfAngles(angles);
    assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-12, `${angles} normalized`);
    assert.ok(q[3] >= 0, `${angles} w >= 0`);
    assert.ok(
      q.every((v) => !Object.is(v, -0)),
      `${angles} no -0`,
    );
  }
});

test('typed angles come back as typed, at the precision shown, through a float32 quat', () => {
  const steps = [-179.99, -135, -90, -45.5, -12.34, -0.01, 0, 0.01, 1, 33.33, 90, 120.25, 179.99, 180];
  const pitches = [-89, -60, -30.5, -0.01, 0, 0.01, 15, 45, 75.75, 89];
  let count = 0;
  for (const yaw of steps) {
    for (const pitch of pitches) {
      for (const roll of steps) {
        const stored = quatOfAngles([yaw, pitch, roll]).map(Math.fround);
        const shown = anglesOfQuat(stored).map(formatAngle);
        assert.deepEqual(shown, [yaw, pitch, roll].map(formatAngle), `${yaw} ${pitch} ${roll}`);
        // Shown again and stored again, the quat stays the same float32 quat.
        const again = quatOfAngles(shown.map(Number)).map(Math.fround);
        assert.ok(
          again.every((v, i) => Math.abs(v - stored[i]) <= 2e-7),
          `${yaw} ${pitch} ${roll} is stable`,
        );
        count++;
      }
    }
  }
  assert.equal(count, steps.length * steps.length * pitches.length);
});

test('at pitch +/-90 roll is 0 and yaw carries the turn', () => {
  for (const pitch of [90, -90]) {
    const q = quatOfAngles([30, pitch, 0]).map(Math.fround);
    assert.deepEqual(anglesOfQuat(q).map(formatAngle), ['30', String(pitch), '0']);
    // Yaw and roll about the same axis: the same rotation, shown one way.
    const same = anglesOfQuat(quatOfAngles([30 + (pitch > 0 ? 10 : -10), pitch, 10]));
    assert.deepEqual(same.map(formatAngle), ['30', String(pitch), '0'], `pitch ${pitch}`);
  }
});

test('an unnormalized quat reads as its rotation, a zero quat as none', () => {
  const q = quatOfAngles([45, 10, -20]).map((v) => v * 3);
  assert.deepEqual(anglesOfQuat(q).map(formatAngle), ['45', '10', '-20']);
  assert.deepEqual(anglesOfQuat([0, 0, 0, 0]), [0, 0, 0]);
  assert.deepEqual(anglesOfQuat([0, 0, 0, -1]).map(formatAngle), ['0', '0', '0']);
});

test('angles are shown with two decimals at most, 180 for -180 and no -0', () => {
  assert.equal(formatAngle(12.3456), '12.35');
  assert.equal(formatAngle(-0.001), '0');
  assert.equal(formatAngle(-179.999), '180');
  assert.equal(formatAngle(90), '90');
});

test('a turn about the world axes adds to the angles, stays normalized, and turns a zero quat from rest', () => {
  const turned = turnedQuat(quatOfAngles([30, 0, 0]), quatOfAngles([15, 0, 0]));
  assert.deepEqual(
    anglesOfQuat(turned).map((v) => Math.round(v * 1e6) / 1e6 + 0),
    [45, 0, 0],
  );
  assert.ok(Math.abs(Math.hypot(...turned) - 1) < 1e-12);
  // A half turn keeps w >= 0.
  assert.ok(turnedQuat(quatOfAngles([180, 0, 0]), quatOfAngles([90, 0, 0]))[3] >= 0);
  assert.deepEqual(turnedQuat(quatOfAngles([0, 90, 0]), [0, 0, 0, 0]), quatOfAngles([0, 90, 0]));
});

test('angles typed past pitch 90 stay shown as typed while the quat is theirs, else the quat is read', () => {
  const typed = [0, 120, 0];
  const stored = new Float32Array(quatOfAngles(typed));
  assert.deepEqual(anglesOfQuat(stored).map(formatAngle), ['180', '60', '180'], 'the same rotation, read another way');
  assert.deepEqual(anglesShown(stored, typed), typed);
  assert.deepEqual(anglesShown(stored, [10, 120, 0]).map(formatAngle), ['180', '60', '180'], 'angles of another rotation are not shown');
  assert.deepEqual(anglesShown(stored, null).map(formatAngle), ['180', '60', '180']);
});
