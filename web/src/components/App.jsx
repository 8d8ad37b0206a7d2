// The inspector's layout: toolbar and messages on top, the entity list on the
// left, the map (2D or 3D) in the middle, the inspector on the right (the panes beside
// the map resized by splitters), pending changes and diagnostics below.
import { useEffect, useRef } from 'preact/hooks';
import { isTyping } from '../lib/keys.js';
import { copySelection, duplicateSelection, paste } from '../state/copies.js';
import { redo, undo } from '../state/history.js';
import { pickingFor } from '../state/refPick.js';
import { fitPanes, paneWidths, rowWidth } from '../state/layout.js';
import { save } from '../state/save.js';
import { viewedWorld, viewMode } from '../state/viewMode.js';
import { Conflicts } from './Conflicts.jsx';
import { Diagnostics } from './Diagnostics.jsx';
import { EntityList } from './EntityList.jsx';
import { Inspector } from './Inspector.jsx';
import { KeptWork } from './KeptWork.jsx';
import { Messages } from './Messages.jsx';
import { PendingChanges } from './PendingChanges.jsx';
import { ProgressBar } from './ProgressBar.jsx';
import { SharePanel } from './SharePanel.jsx';
import { ChangeLinkPanel } from './ChangeLinkPanel.jsx';
import { Splitter } from './Splitter.jsx';
import { Toolbar } from './Toolbar.jsx';
import { Viewport } from './Viewport.jsx';
import { WorldMap } from './WorldMap.jsx';

export function App() {
  const panes = useRef(null);
  useEffect(() => {
    const observer = new ResizeObserver(() => {
      rowWidth.value = panes.current.clientWidth;
      fitPanes();
    });
    observer.observe(panes.current);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const onKey = (event) => {
      const key = event.key.toLowerCase();
      const mod = event.ctrlKey || event.metaKey;
      // Undo and redo are the editor's everywhere, in a field too (as in
      // Unity and Godot): a field's own undo would show a value that is not
      // the engine's. A field with text not yet applied drops it first
      // (TextField), without reaching here.
      if (mod && (key === 'z' || key === 'y')) {
        event.preventDefault();
        if (key === 'y' || event.shiftKey) redo();
        else undo();
        return;
      }
      // Duplicate, copy and paste entities, unless the keys are a text
      // field's (or text is selected on the page: Ctrl+C copies it).
      const copyKeys = { d: duplicateSelection, c: copySelection, v: () => paste() };
      if (mod && !event.shiftKey && !event.altKey && copyKeys[key] && !isTyping(event.target)) {
        if (key === 'c' && String(window.getSelection?.() ?? '') !== '') return;
        event.preventDefault();
        copyKeys[key]();
        return;
      }
      if (mod && key === 's') {
        event.preventDefault();
        // Commit the field being typed in first: its change event fires on blur.
        document.activeElement?.blur?.();
        setTimeout(save, 0);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div class={`app${pickingFor.value ? ' picking' : ''}`}>
      <Toolbar />
      <ProgressBar />
      <Messages />
      <KeptWork />
      <SharePanel />
      <ChangeLinkPanel />
      <main
        class="panes"
        ref={panes}
        style={{ '--list-width': `${paneWidths.value.list}px`, '--inspector-width': `${paneWidths.value.inspector}px` }}
      >
        <EntityList />
        <Splitter pane="list" side="before" label="Resize the entity list" />
        {viewMode.value === '3d' ? <Viewport key={viewedWorld.value} /> : <WorldMap />}
        <Splitter pane="inspector" side="after" label="Resize the inspector" />
        <Inspector />
      </main>
      {/* Below the panes: a conflict that arrives shortens them from the bottom
          and moves no row of the list under the pointer. */}
      <Conflicts />
      <footer class="lower">
        <PendingChanges />
        <Diagnostics />
      </footer>
    </div>
  );
}
