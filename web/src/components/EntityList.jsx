// The entity list, an outliner: a virtualised tree (only the rows in view
// are in the DOM) with the class filter and the search (by name or ID)
// above it. Each row shows the entity's name (lib/names.js) with its ID
// beside it, under its parent (state/hierarchy.js). Arrow keys, Page
// Up/Down, Home and End move the selection (with Shift, Up and Down extend
// it); Right and Left open and close a subtree (or go to its first child
// and to the parent); Ctrl/Cmd+A selects every entity listed; Delete
// removes the selected entities. A click selects one entity, Shift-click
// the range from the one clicked before, Ctrl/Cmd-click adds or takes out
// one; a click on the arrow opens or closes its subtree. Dragging entities
// onto another puts them under it; onto the list's empty space, at the top.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { classColor } from '../lib/classColor.js';
import { formatPosition } from '../lib/fields.js';
import { deleteEntity, setParents } from '../state/edits.js';
import { collapsedIds, expandTo, forest, setCollapsed } from '../state/hierarchy.js';
import { classCounts, classFilter, followQuery, listRows, query, queryError, search, totalCount } from '../state/listView.js';
import {
  readAhead,
  select,
  selectAllOnKey,
  takeClick,
  selectedId,
  selectedIds,
  selectionAnchor,
  setSelection,
  toggleSelected,
} from '../state/selection.js';
import { revision, table } from '../state/table.js';
import { schemas, status } from '../state/world.js';
import { hasParentField } from '../lib/hierarchy.js';
import { FailedFileRows } from './FailedFiles.jsx';

const ROW_HEIGHT = 28;
const OVERSCAN = 8;
const INDENT = 14; // px per level of the hierarchy
const INDENT_LEVELS = 12; // deeper levels show at this one's indent

// The entities being dragged in the list (their IDs), or null.
let dragged = null;

export function EntityList() {
  return (
    <section class="pane list-pane" aria-label="Entities">
      <ListFilters />
      <FailedFileRows />
      <EntityListbox />
    </section>
  );
}

function ListFilters() {
  const counts = classCounts.value;
  return (
    <div class="filters">
      <label>
        Filter by class
        <select value={classFilter.value} onChange={(e) => (classFilter.value = e.currentTarget.value)}>
          <option value="">All classes ({totalCount.value.toLocaleString('en')})</option>
          {/* The world's classes that have entities (its registry may know more). */}
          {Object.entries(counts)
            .filter(([name, n]) => n > 0 || name === classFilter.value)
            .map(([name, n]) => (
              <option value={name} key={name}>
                {name} ({n.toLocaleString('en')})
              </option>
            ))}
        </select>
      </label>
      <label>
        Search by name or ID
        <input
          type="search"
          placeholder="Name, 0x… or file number"
          value={search.value}
          onInput={(e) => (search.value = e.currentTarget.value)}
        />
      </label>
      <QueryBox />
    </div>
  );
}

// The query (lib/query.js): terms ANDed, the list and the map show the
// entities that pass; what is wrong with a bad one is said under the box.
function QueryBox() {
  useEffect(followQuery, []);
  const error = queryError.value;
  return (
    <div class="query">
      <label>
        Query
        <input
          type="search"
          placeholder="class:Light intensity>10 name:grunt"
          spellcheck={false}
          autocomplete="off"
          value={query.value}
          onInput={(e) => (query.value = e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby="query-help"
        />
      </label>
      <p id="query-help" class={error ? 'query-error' : 'query-help'} aria-live="polite">
        {error ?? 'field:text  field>number (= != < <= > >=)  class:Name  position.x<0'}
      </p>
    </div>
  );
}

function EntityListbox() {
  const scroller = useRef(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const list = listRows.value;
  const { rows, index } = list;
  const tree = forest.value;
  revision.value; // redraw the rows in view on every edit
  const selId = selectedId.value;
  const selIds = selectedIds.value;
  const selRow = selId === null ? -1 : (table.rowOf.get(selId) ?? -1);
  const selIndex = selRow < 0 ? -1 : index[selRow];
  const [dropOn, setDropOn] = useState(null); // the row dragged over, or -1 for the top level
  const [dragging, setDragging] = useState(false);

  useLayoutEffect(() => {
    const el = scroller.current;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  // Bring the selection into view when it changes (from the map, the keyboard
  // or a link in the inspector), opening its ancestors if closed.
  useEffect(() => {
    const el = scroller.current;
    if (selIndex < 0 && selRow >= 0 && list.context === null) expandTo(selId);
    if (selIndex < 0 || !el) return;
    const top = selIndex * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) {
      el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
    }
  }, [selId, selIndex]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  // Selects the entity at `index` of the list (with `extend`, the range
  // from the anchor to it).
  function move(index, extend = false) {
    if (rows.length === 0) return;
    const i = Math.max(0, Math.min(rows.length - 1, index));
    const id = table.ids[rows[i]];
    if (extend && selectRange(id)) return;
    select(id);
  }

  // Selects the range from the anchor to `id`; false if either is not listed.
  function selectRange(id) {
    const anchor = selectionAnchor();
    const from = anchor === null ? -1 : (index[table.rowOf.get(anchor) ?? -1] ?? -1);
    const to = index[table.rowOf.get(id)];
    if (from < 0 || to < 0) return false;
    setSelection(
      Array.from(rows.subarray(Math.min(from, to), Math.max(from, to) + 1), (r) => table.ids[r]),
      id,
    );
    return true;
  }

  function onKeyDown(event) {
    if (selectAllOnKey(event)) return;
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const at = selIndex;
    const extend = event.shiftKey;
    const keys = {
      ArrowDown: () => move(at + 1, extend),
      ArrowUp: () => move(at < 0 ? 0 : at - 1, extend),
      PageDown: () => move(at + page),
      PageUp: () => move(at - page),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      ArrowRight: () => selRow >= 0 && openOrEnter(selRow),
      ArrowLeft: () => selRow >= 0 && closeOrLeave(selRow),
      Delete: () => selId !== null && deleteEntity(),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  const closed = (row) => list.context === null && collapsedIds.value.has(table.ids[row]);

  // Right: opens the subtree of `row`, or goes to its first child if open.
  function openOrEnter(row) {
    if (tree.kids[row] === 0) return;
    if (closed(row)) setCollapsed(table.ids[row], false);
    else move(index[row] + 1);
  }

  // Left: closes the subtree of `row`, or goes to its parent if closed.
  function closeOrLeave(row) {
    if (tree.kids[row] > 0 && !closed(row) && list.context === null) setCollapsed(table.ids[row], true);
    else if (tree.up[row] >= 0) select(table.ids[tree.up[row]]);
  }

  // Dragging: the selection if the row is in it, else that row; dropped on
  // a row, under it; on the strip over the list's top or on its empty
  // space, at the top level.
  const drag = {
    start(event, id) {
      dragged = selIds.has(id) ? [...selIds] : [id];
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', dragged.join('\n'));
      setDragging(true);
    },
    over(event, row) {
      if (dragged === null) return;
      event.preventDefault();
      event.stopPropagation();
      if (dropOn !== row) setDropOn(row);
    },
    drop(event, row) {
      if (dragged === null) return;
      event.preventDefault();
      event.stopPropagation();
      setParents(dragged, row < 0 ? null : table.ids[row]);
      drag.end();
    },
    end() {
      dragged = null;
      setDropOn(null);
      setDragging(false);
    },
  };

  const items = [];
  for (let i = first; i < last; i++) {
    const row = rows[i];
    const id = table.ids[row];
    items.push(
      <EntityRow
        key={id}
        row={row}
        list={list}
        selected={selIds.has(id)}
        onPick={onPick}
        tree={tree}
        open={!closed(row)}
        context={list.context !== null && list.context[row] === 1}
        dropTarget={dropOn === row}
        drag={drag}
      />,
    );
  }

  // A click on the entity `id`: see the file's comment.
  function onPick(event, id) {
    if (takeClick(id)) return;
    if (event.shiftKey && selectRange(id)) return;
    if (event.ctrlKey || event.metaKey) toggleSelected(id);
    else select(id);
  }

  const empty = status.value === 'ready' && rows.length === 0;
  return (
    <div
      ref={scroller}
      class="listbox"
      role="tree"
      tabIndex={0}
      aria-label="Entity list"
      aria-multiselectable="true"
      aria-activedescendant={selIndex >= first && selIndex < last ? optionId(selId) : undefined}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
      onDragOver={(e) => drag.over(e, -1)}
      onDrop={(e) => drag.drop(e, -1)}
      onDragLeave={(e) => e.currentTarget === e.target && setDropOn(null)}
    >
      {dragging && (
        <div class={`drop-top${dropOn === -1 ? ' drop-target' : ''}`} aria-hidden="true">
          Drop here: no parent
        </div>
      )}
      <div class="listbox-inner" style={{ height: `${rows.length * ROW_HEIGHT}px` }}>
        <div class="listbox-rows" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
          {items}
        </div>
      </div>
      {empty && <p class="muted empty">No entity matches.</p>}
    </div>
  );
}

function EntityRow({ row, list, selected, onPick, tree, open, context, dropTarget, drag }) {
  const id = table.ids[row];
  const k = table.cls[row];
  const cls = table.classNames[k];
  const dirty = table.dirty[row] === 1;
  const name = table.names[row];
  const where = formatPosition([table.pos[row * 3], table.pos[row * 3 + 1], table.pos[row * 3 + 2]]);
  const parent = tree.nested;
  const kids = tree.kids[row] > 0;
  const classes = `row${selected ? ' selected' : ''}${context ? ' context' : ''}${dropTarget ? ' drop-target' : ''}`;
  // A context row is an ancestor shown only to place what the filter passes.
  return (
    <div
      id={optionId(id)}
      class={classes}
      role="treeitem"
      aria-selected={selected ? 'true' : 'false'}
      aria-level={tree.depth[row] + 1}
      aria-expanded={kids ? String(open) : undefined}
      aria-posinset={list.rank[row] + 1}
      aria-setsize={list.siblings[tree.up[row] + 1]}
      aria-label={`${name ? `${name} ` : ''}${id} ${cls} ${where}${dirty ? ', unsaved' : ''}${context ? ', outside the filter' : ''}`}
      onClick={(e) => onPick(e, id)}
      onMouseDown={(e) => {
        if (e.shiftKey)
          e.preventDefault(); // no text selection
        else readAhead(id);
      }}
      draggable={hasParentField(schemas.value[cls]) ? 'true' : undefined}
      onDragStart={(e) => drag.start(e, id)}
      onDragOver={(e) => drag.over(e, row)}
      onDrop={(e) => drag.drop(e, row)}
      onDragEnd={drag.end}
    >
      {/* Spaces between the cells: the visible text reads as the name does. */}
      <span class="swatch" style={{ background: classColor(cls) }} />{' '}
      <span class="who" style={parent ? { paddingLeft: `${Math.min(tree.depth[row], INDENT_LEVELS) * INDENT}px` } : undefined}>
        {parent && (
          <span
            class={`twisty${kids ? '' : ' leaf'}`}
            aria-hidden="true"
            onClick={(e) => {
              if (!kids || context) return;
              e.stopPropagation();
              setCollapsed(id, open);
            }}
          >
            {kids ? (open ? '▾' : '▸') : ''}
          </span>
        )}
        {name && (
          <span class="name" title={name}>
            {name}
          </span>
        )}{' '}
        <span class="id">{id}</span>
      </span>{' '}
      <span class="cls">{cls}</span> <span class="pos">{where}</span>{' '}
      <span class="dirty" title={dirty ? 'Unsaved changes' : undefined}>
        {dirty ? '●' : ''}
      </span>
    </div>
  );
}

function optionId(id) {
  return `entity-${id}`;
}
