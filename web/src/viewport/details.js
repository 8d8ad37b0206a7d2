// The entities the 3D view shows up close, drawn as what they are: a shape
// per class (a box for a class with a mesh, a bulb in the light's own
// colour, a marker otherwise), turned by the entity's rotation with a nose
// on its +Z (forward) side, never smaller on screen than MIN_PX; and, for
// the entities it is given, a light's reach (a ring at its height), lines
// to the entities it references, and its name as a label over the canvas
// (the nearer of two labels that would overlap is the one shown).
// The scene decides which entities those are (level of detail).
import * as THREE from 'three';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';

const MIN_PX = 14; // a shape's least size on screen
const RING_SEGMENTS = 48;
const LINK_COLOR = 0x8fa3b8;

// A unit shape with its nose at +Z.
function withNose(body) {
  const nose = new THREE.ConeGeometry(0.2, 0.5, 8).rotateX(Math.PI / 2).translate(0, 0, 0.6);
  const merged = mergeGeometries([body.toNonIndexed(), nose.toNonIndexed()]);
  merged.computeVertexNormals();
  return merged;
}

const GEOMETRIES = {
  box: () => withNose(new THREE.BoxGeometry(0.8, 0.8, 0.8)),
  bulb: () => new THREE.SphereGeometry(0.4, 10, 8),
  marker: () => withNose(new THREE.SphereGeometry(0.36, 10, 6)),
};

/**
 * Details drawn into `scene` (the view's overlay: they change with the
 * hover and the selection, and the level's markers under them need not be
 * drawn again), labels into `labelLayer` (an element over the canvas).
 */
export function createDetails(scene, labelLayer) {
  // World units per screen pixel at a view depth d: perPx.x * d + perPx.y
  // (perspective: grows with depth; orthographic: constant).
  const perPx = { value: new THREE.Vector2(0, 0) };
  const scaled = (material) => {
    material.onBeforeCompile = (shader) => {
      shader.uniforms.jlPerPx = perPx;
      shader.vertexShader = `uniform vec2 jlPerPx;\n${shader.vertexShader}`.replace(
        '#include <begin_vertex>',
        `#include <begin_vertex>
        #ifdef USE_INSTANCING
          vec4 jlOrigin = modelViewMatrix * instanceMatrix[3]; // the instance's origin, seen from the camera
          transformed *= max(1.0, (jlPerPx.x * -jlOrigin.z + jlPerPx.y) * ${MIN_PX.toFixed(1)});
        #endif`,
      );
    };
    return material;
  };
  const materials = {
    box: scaled(new THREE.MeshLambertMaterial()),
    bulb: scaled(new THREE.MeshBasicMaterial()), // a light shines: no shading
    marker: scaled(new THREE.MeshLambertMaterial()),
  };
  const meshes = {};
  const group = new THREE.Group();
  const sky = new THREE.HemisphereLight(0xffffff, 0x3a4450, 2.2);
  const sun = new THREE.DirectionalLight(0xffffff, 1.2);
  sun.position.set(0.4, 1, 0.6);
  group.add(sky, sun);
  const lines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ vertexColors: true }));
  lines.frustumCulled = false;
  group.add(lines);
  scene.add(group);

  let labels = []; // [{ el, pos: [x, y, z], width }]

  function mesh(shape, count) {
    let m = meshes[shape];
    if (m && m.instanceMatrix.count >= count) return m;
    if (m) {
      group.remove(m);
      m.geometry.dispose();
      m.dispose();
    }
    // Room for twice as many: the next sets rarely need a new buffer.
    m = new THREE.InstancedMesh(GEOMETRIES[shape](), materials[shape], Math.max(64, count * 2));
    m.frustumCulled = false;
    meshes[shape] = m;
    group.add(m);
    return m;
  }
  // Made up front, coloured (a shader of its own), so that warmUp can
  // draw them.
  for (const shape of Object.keys(GEOMETRIES)) {
    const m = mesh(shape, 0);
    m.setColorAt(0, new THREE.Color());
    m.count = 0;
  }

  /**
   * Draws `rows` (table rows of `table`) as their shapes: `shapes` a shape
   * name per class index, `colors` [r, g, b] per class index, `details` a
   * Map row -> { rotation, color, radius, refs } (state/entityDetails.js);
   * a row without details is not drawn. Returns how many of each shape.
   */
  function showShapes(table, rows, { shapes, colors, details }) {
    const byShape = { box: [], bulb: [], marker: [] };
    for (const row of rows) if (details.has(row)) byShape[shapes[table.cls[row]]].push(row);
    const m4 = new THREE.Matrix4();
    const q = new THREE.Quaternion();
    const p = new THREE.Vector3();
    const one = new THREE.Vector3(1, 1, 1);
    const color = new THREE.Color();
    for (const shape of Object.keys(byShape)) {
      const list = byShape[shape];
      const m = mesh(shape, list.length);
      list.forEach((row, i) => {
        const { rotation, color: own } = details.get(row);
        q.set(0, 0, 0, 1);
        if (rotation && Math.hypot(...rotation) > 0) q.fromArray(rotation).normalize();
        m.setMatrixAt(i, m4.compose(p.fromArray(table.pos, row * 3), q, one));
        if (own) color.set(own);
        else color.setRGB(...colors[table.cls[row]]);
        m.setColorAt(i, color);
      });
      m.count = list.length;
      m.instanceMatrix.needsUpdate = true;
      if (m.instanceColor) m.instanceColor.needsUpdate = true;
    }
    return { box: byShape.box.length, bulb: byShape.bulb.length, marker: byShape.marker.length };
  }

  /** Draws the reach, links and label of `rows` from `details` (as
   * showShapes'). Returns how many labels and line segments. */
  function describe(table, rows, details) {
    return { segments: drawLines(table, rows, details), labels: placeLabels(table, rows, details) };
  }

  // Reach rings of the described lights and lines from each described
  // entity to those it references.
  function drawLines(table, described, details) {
    const position = [];
    const color = [];
    const c = new THREE.Color();
    const at = (row) => [table.pos[row * 3], table.pos[row * 3 + 1], table.pos[row * 3 + 2]];
    for (const row of described) {
      const d = details.get(row);
      if (!d) continue;
      const [x, y, z] = at(row);
      if (d.color && Number.isFinite(d.radius) && d.radius > 0) {
        c.set(d.color);
        for (let k = 0; k < RING_SEGMENTS; k++) {
          const a0 = (k / RING_SEGMENTS) * Math.PI * 2;
          const a1 = ((k + 1) / RING_SEGMENTS) * Math.PI * 2;
          position.push(x + d.radius * Math.cos(a0), y, z + d.radius * Math.sin(a0));
          position.push(x + d.radius * Math.cos(a1), y, z + d.radius * Math.sin(a1));
          color.push(c.r, c.g, c.b, c.r, c.g, c.b);
        }
      }
      c.set(LINK_COLOR);
      for (const target of d.refs) {
        position.push(x, y, z, ...at(target));
        color.push(c.r, c.g, c.b, c.r, c.g, c.b);
      }
    }
    lines.geometry.dispose();
    lines.geometry = new THREE.BufferGeometry();
    lines.geometry.setAttribute('position', new THREE.Float32BufferAttribute(position, 3));
    lines.geometry.setAttribute('color', new THREE.Float32BufferAttribute(color, 3));
    return position.length / 6;
  }

  // A label per described entity: its name (the table's), else its ID.
  function placeLabels(table, described, details) {
    labelLayer.replaceChildren();
    labels = [];
    for (const row of described) {
      const d = details.get(row);
      if (!d) continue;
      const el = document.createElement('span');
      el.textContent = table.names[row] || table.ids[row];
      labelLayer.append(el);
      labels.push({ el, pos: [table.pos[row * 3], table.pos[row * 3 + 1], table.pos[row * 3 + 2]] });
    }
    for (const label of labels) label.width = label.el.offsetWidth; // one layout for all
    return labels.length;
  }

  /** Calls draw() with one of each shape and a line drawn (at the origin):
   * what compiles their shaders. */
  function warmUp(draw) {
    const counts = Object.values(meshes).map((m) => m.count);
    for (const m of Object.values(meshes)) m.count = 1;
    const geometry = lines.geometry;
    lines.geometry = new THREE.BufferGeometry();
    lines.geometry.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0, 0, 0, 1], 3));
    lines.geometry.setAttribute('color', new THREE.Float32BufferAttribute([1, 1, 1, 1, 1, 1], 3));
    draw();
    lines.geometry.dispose();
    lines.geometry = geometry;
    Object.values(meshes).forEach((m, i) => (m.count = counts[i]));
  }

  /** Before each frame: the shapes' scale and the labels' places for
   * `camera` on a canvas of `width` x `height` CSS pixels. */
  function update(camera, width, height) {
    if (camera.isOrthographicCamera) perPx.value.set(0, (camera.top - camera.bottom) / camera.zoom / height);
    else perPx.value.set((2 * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2)) / camera.zoom / height, 0);
    const v = new THREE.Vector3();
    const at = labels.map((label) => {
      v.fromArray(label.pos).project(camera);
      return { label, x: ((v.x + 1) / 2) * width, y: ((1 - v.y) / 2) * height, z: v.z };
    });
    at.sort((a, b) => a.z - b.z);
    const placed = []; // boxes of the labels shown: [x0, y0, x1, y1]
    for (const { label, x, y, z } of at) {
      // (The label's box as styles.css places it: up and right of its entity.)
      const box = [x + 8, y - 22, x + 8 + label.width, y - 6];
      const clash = placed.some((b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]);
      const hidden = clash || z < -1 || z > 1 || x < -label.width || x > width || y < 0 || y > height + 22;
      // (Written only when changed: each write costs a style pass.)
      if (label.el.hidden !== hidden) label.el.hidden = hidden;
      if (hidden) continue;
      placed.push(box);
      const transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      if (label.transform !== transform) label.el.style.transform = label.transform = transform;
    }
  }

  function dispose() {
    for (const m of Object.values(meshes)) {
      m.geometry.dispose();
      m.dispose();
    }
    for (const material of Object.values(materials)) material.dispose();
    lines.geometry.dispose();
    lines.material.dispose();
    labelLayer.replaceChildren();
  }

  return { showShapes, describe, warmUp, update, dispose };
}
