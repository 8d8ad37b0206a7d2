// The 3D view drawn in two layers. The level (grid, markers, shapes) costs
// the most to draw: 100,000 markers take a CPU renderer such as SwiftShader
// about 150 ms. It is drawn into a texture, again only once it changed (the
// camera moved, the entities changed). The overlay (the selection, the
// gizmo, names' lines) is drawn over a copy of that texture each frame, so
// a selection, a hover or a gizmo drag with the camera still costs a copy
// and the overlay, not the level.
//
// A frame draws at most `budget` markers into the level: as many as take
// FRAME_MS on this machine's renderer (every one on a real GPU). While the
// camera moves, the level shows the first `budget` markers only (the scene
// orders them so that any first part is spread over the whole level). At
// rest the level is drawn whole into a second texture, a share of `budget`
// markers a frame (so that a click or an edit meanwhile waits for a short
// pass, not a long one), the first one shown meanwhile; then they swap. No
// frame keeps the page or the renderer busy much longer than FRAME_MS,
// however many entities, and an edit never shows a level half drawn.
import * as THREE from 'three';

const FRAME_MS = 40;
const LEAST_BUDGET = 5_000;
const POLL_MS = 10; // how often a pass's fence is read
const FIRST_BUDGET = 20_000; // grows within a few frames where drawing is cheap
const REST_SHARE = 0.4; // of the budget, drawn a frame while filling at rest
export const MARKERS_LAYER = 1; // the cameras see it; a pass of markers alone sees only it

// The level's texture holds the canvas's own sRGB bytes (exact in the dark,
// unlike linear ones) in a plain RGBA8 texture: the level's materials encode
// them (writeSrgb) and the copy takes them as they are. An sRGB texture
// would have each pixel decoded and encoded again at every frame, a fifth
// of a frame's time with a CPU renderer.
const COPY = new THREE.ShaderMaterial({
  uniforms: { level: { value: null } },
  vertexShader: 'varying vec2 at; void main() { at = uv; gl_Position = vec4(position.xy, 0.0, 1.0); }',
  fragmentShader: `uniform sampler2D level;
    varying vec2 at;
    void main() { gl_FragColor = texture2D(level, at); }`,
  depthTest: false,
  depthWrite: false,
});

// A level material's onBeforeCompile: it writes sRGB bytes, as the canvas
// takes them (three.js writes linear ones into a texture). One function, so
// that every material it is given shares its program.
function writeSrgb(shader) {
  shader.fragmentShader = shader.fragmentShader.replace('#include <colorspace_fragment>', 'gl_FragColor = sRGBTransferOETF(gl_FragColor);');
}

/**
 * Layers drawn by `renderer`: `level` and `overlay` are the scenes to fill;
 * `markers` the level's THREE.Points (in MARKERS_LAYER) whose draw range the
 * budget sets; the level is on `background` (a colour, not the scene's,
 * which three.js would clear each pass with); `again()` asks for another
 * frame (to add markers at rest).
 */
export function createLayers(renderer, markers, { background, again }) {
  const level = new THREE.Scene();
  const overlay = new THREE.Scene();
  const texture = () => new THREE.WebGLRenderTarget(1, 1);
  // The background's sRGB bytes, held as three.js holds linear values: it
  // clears the texture with them unchanged.
  const clearColor = new THREE.Color(background).convertLinearToSRGB();
  let front = texture(); // shown
  let back = texture(); // filled at rest, then shown
  const copy = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), COPY.clone());
  copy.material.uniforms.level.value = front.texture;
  copy.frustumCulled = false;
  const copyCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);

  let stale = true;
  let filling = false; // the back texture is being drawn
  let moving = false;
  let budget = FIRST_BUDGET;
  let filled = 0; // markers in the level's texture
  // A pass's cost: from its draw calls to the renderer's fence after them
  // being passed, read without waiting (one fence at a time), first at 40%
  // of what the budget's share may take (each read is a task of the
  // page's; the first is still early enough to tell a pass cheap enough
  // for the budget to grow). `share`: of the budget the pass drew.
  const gl = renderer.getContext();
  let fence = null;
  let timer = 0;
  function timePass(drawn, share) {
    if (fence) return;
    const at = performance.now();
    fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl.flush();
    const poll = () => {
      if (gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) {
        timer = setTimeout(poll, POLL_MS);
        return;
      }
      gl.deleteSync(fence);
      fence = null;
      const ms = (performance.now() - at) / share; // as if the whole budget were drawn
      if (ms > FRAME_MS) budget = Math.max(LEAST_BUDGET, Math.floor((drawn / share) * 0.7));
      else if (ms < FRAME_MS / 2 && drawn >= budget * share) budget = Math.ceil(budget * 1.3);
    };
    timer = setTimeout(poll, FRAME_MS * share * 0.4);
  }
  const count = () => markers.geometry.attributes.position?.count ?? 0;

  /** The level changed: it is drawn again at the next frame. */
  function invalidate() {
    stale = true;
  }

  /** Whether the camera is moving (the budget applies) or at rest. */
  function setMoving(on) {
    if (moving === on) return;
    moving = on;
    stale = true;
  }

  function setSize(width, height) {
    front.setSize(width, height);
    back.setSize(width, height);
    stale = true;
  }

  /** Draws a frame seen from `camera`. */
  function render(camera) {
    if (stale && moving) {
      filling = false;
      start(front, camera);
    } else if (stale) {
      filling = true;
      start(back, camera);
    } else if (filling) {
      // More markers over what the texture holds (its depth kept).
      renderer.setRenderTarget(back);
      const mask = camera.layers.mask;
      camera.layers.set(MARKERS_LAYER);
      pass(level, camera);
      camera.layers.mask = mask;
    }
    renderer.setRenderTarget(null);
    stale = false;
    if (filling && filled >= count()) {
      [front, back] = [back, front];
      copy.material.uniforms.level.value = front.texture;
      filling = false;
    }
    if (filling) again();
    renderer.clearDepth(); // the copy covers every pixel
    renderer.render(copy, copyCamera);
    renderer.render(overlay, camera);
  }

  /**
   * After a few markers moved, with the camera at rest: the level's texture
   * drawn again only around `spots` (their old and new places on the
   * canvas, [x, y] in CSS pixels, y down), each a square a marker's size
   * across, cleared and drawn again with the grid and `near` (a
   * THREE.Points of the markers that reach into those squares, in the
   * markers' material), so that the edit shows at the next frame for the
   * cost of a few markers, not once a new texture is filled. While one is
   * (at rest, over frames), it is drawn again there too: the markers it
   * has yet to draw come from the moved places. False, and nothing drawn,
   * when the level is to be drawn anew anyway (invalidate).
   */
  function redrawAround(spots, camera, near) {
    if (stale || moving) return false;
    const ratio = renderer.getPixelRatio();
    const half = Math.ceil((markers.material.size * ratio) / 2) + 1;
    markers.visible = false;
    level.add(near);
    for (const target of filling ? [front, back] : [front]) {
      target.scissorTest = true;
      for (const [x, y] of spots) {
        target.scissor.set(Math.round(x * ratio) - half, target.height - Math.round(y * ratio) - half, 2 * half, 2 * half);
        renderer.setRenderTarget(target); // (which takes the target's scissor)
        renderer.setClearColor(clearColor); // (converted for the target bound)
        renderer.clear();
        renderer.render(level, camera);
      }
      target.scissorTest = false;
    }
    renderer.setRenderTarget(null);
    level.remove(near);
    markers.visible = true;
    return true;
  }

  // The whole level anew into `target`, with the first markers.
  function start(target, camera) {
    level.traverse((object) => {
      if (!object.material || object.material.onBeforeCompile === writeSrgb) return;
      object.material.onBeforeCompile = writeSrgb;
      object.material.needsUpdate = true;
    });
    renderer.setRenderTarget(target);
    renderer.setClearColor(clearColor);
    renderer.clear();
    filled = 0;
    pass(level, camera);
  }

  // Draws `scene` with the next markers (`budget` of them while moving,
  // its share at rest), and times it.
  function pass(scene, camera) {
    const share = moving ? 1 : REST_SHARE;
    const drawn = Math.min(Math.ceil(budget * share), count() - filled);
    markers.geometry.setDrawRange(filled, drawn);
    renderer.render(scene, camera);
    filled += drawn;
    timePass(drawn, share);
  }

  function dispose() {
    front.dispose();
    back.dispose();
    copy.geometry.dispose();
    copy.material.dispose();
    clearTimeout(timer);
    if (fence) gl.deleteSync(fence);
  }

  return { level, overlay, invalidate, redrawAround, setMoving, setSize, render, dispose };
}
