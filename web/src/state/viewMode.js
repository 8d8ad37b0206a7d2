// Which view of the level the middle pane shows: the 2D map or the 3D
// viewport, and the 3D camera to put back when the viewport is shown again
// (its scene is made anew each time).
import { signal } from '@preact/signals';

export const viewMode = signal('map'); // 'map' | '3d'
export const viewportCamera = signal(null); // the scene's cameraState(), or null: frame the world

export function showViewport(on) {
  viewMode.value = on ? '3d' : 'map';
}

// A world opened: its camera is not the last world's.
export function forgetViewportCamera() {
  viewportCamera.value = null;
}
