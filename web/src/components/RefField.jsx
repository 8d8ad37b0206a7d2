// An entity_ref field: the target's ID (empty for none), checked by the
// engine and against the world, with the target's class and name beside it
// and a link that selects it. Typing searches the entities by name or ID (a
// combobox: arrows and Enter choose, `none` clears the reference); an ID or
// a file number typed whole is committed as typed. Pick starts pick mode
// (state/refPick.js): the next click on an entity sets the field to it.
import { useState } from 'preact/hooks';
import { classColor } from '../lib/classColor.js';
import { isNullRef } from '../lib/fields.js';
import { searchRows } from '../state/listView.js';
import { isPicking, startPick, cancelPick } from '../state/refPick.js';
import { entityExists, select, selectedId } from '../state/selection.js';
import { revision, rowClass, table } from '../state/table.js';
import { checkTyped } from '../state/typed.js';
import { Field, inputProps } from './Field.jsx';
import { onDraftKey, useDraft } from './TextField.jsx';

const MATCHES = 20; // at most this many entities offered

// Text that reads as an ID or a file number: Enter commits it as typed
// rather than the first match.
const ID_LIKE = /^\s*(0x[0-9a-f]*|\d+(\.jasset)?)\s*$/i;

async function checkRef(text) {
  const checked = await checkTyped('entity_ref', text);
  if (checked.error || checked.value === null) return checked;
  if (!entityExists(checked.value)) return { error: `No entity ${checked.value} in this world` };
  return checked;
}

// How entity `id` is told beside a reference: "Enemy · Brute" (its class,
// then its name if it has one).
function describe(id) {
  const row = table.rowOf.get(id);
  const name = table.names[row];
  return name ? `${rowClass(row)} · ${name}` : rowClass(row);
}

// `value` is the target's ID, or null for none.
export function RefField({ id, label, value: target, name, set, disabled }) {
  revision.value; // a target renamed or removed shows at once
  const none = isNullRef(target);
  const value = none ? '' : target;
  const typed = useDraft({ value, check: checkRef, onCommit: (v) => set(v), errorKey: name });
  const { draft, setDraft, commit } = typed;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const owner = selectedId.value;
  const picking = isPicking(owner, label);

  // The choices: none, then the entities the typed text finds (with no
  // text, the world's first ones); past MATCHES, a line says there are more.
  const text = draft ?? '';
  const found = open ? searchRows(text, MATCHES + 1) : [];
  const more = found.length > MATCHES;
  const choices = open ? [null, ...found.slice(0, MATCHES).map((row) => table.ids[row])] : [];
  const listId = `${id}-choices`;
  const choiceId = (k) => `${id}-choice-${k}`;

  function choose(choice) {
    setOpen(false);
    setActive(-1);
    commit(choice ?? '');
  }

  function onInput(e) {
    const t = e.currentTarget.value;
    setDraft(t);
    setOpen(true);
    // The first match is chosen by Enter unless the text is an ID typed.
    setActive(t.trim() !== '' && !ID_LIKE.test(t) && searchRows(t, 1).length ? 1 : -1);
  }

  function onKeyDown(e) {
    const last = choices.length - 1;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(0);
      } else setActive(e.key === 'ArrowDown' ? Math.min(last, active + 1) : Math.max(0, active - 1));
    } else if (e.key === 'Enter' && open && active >= 0 && active <= last) {
      e.preventDefault();
      choose(choices[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    } else {
      if (e.key === 'Enter' || e.key === 'Escape' || e.key === 'Tab') setOpen(false);
      onDraftKey(e, typed, name);
    }
  }

  function togglePick() {
    if (picking) return cancelPick();
    const row = table.rowOf.get(owner);
    startPick(owner, label, (row !== undefined && table.names[row]) || owner, (targetId) => commit(targetId));
  }

  return (
    <Field id={id} errorKey={name}>
      <label for={id}>{label}</label>
      <div class="ref-row">
        <div class="ref-combo">
          <input
            {...inputProps(id, name, disabled)}
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open ? 'true' : 'false'}
            aria-controls={listId}
            aria-activedescendant={open && active >= 0 ? choiceId(active) : undefined}
            spellcheck={false}
            autocomplete="off"
            placeholder="none"
            value={draft ?? value}
            onInput={onInput}
            onChange={(e) => commit(e.currentTarget.value)}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
          />
          <div class="ref-popup" hidden={!open}>
            <ul id={listId} role="listbox" aria-label={`${label}: choices`} class="ref-choices">
              {choices.map((choice, k) => (
                <li
                  key={choice ?? 'none'}
                  id={choiceId(k)}
                  role="option"
                  aria-selected={k === active ? 'true' : 'false'}
                  class={k === active ? 'active' : undefined}
                  onMouseDown={(e) => e.preventDefault() /* the input keeps the focus */}
                  onClick={() => choose(choice)}
                >
                  {choice === null ? <em>none</em> : <Choice id={choice} />}
                </li>
              ))}
            </ul>
            {more && <p class="ref-more muted">More entities match: type more of a name or ID</p>}
          </div>
        </div>
        <button
          type="button"
          class="small"
          disabled={disabled || owner === null}
          aria-pressed={picking ? 'true' : 'false'}
          aria-label={`Pick ${label}`}
          title={picking ? 'Stop picking (Escape)' : 'Then click an entity in the list, the map or the 3D view'}
          onClick={togglePick}
        >
          Pick
        </button>
      </div>
      {!none &&
        (entityExists(target) ? (
          <span class="ref-target">
            <span class="muted">{describe(target)}</span>
            <button type="button" class="link" onClick={() => select(target)}>
              Go to {target}
            </button>
          </span>
        ) : (
          <span class="muted">{target} is not in this world</span>
        ))}
    </Field>
  );
}

// An entity offered: its class's colour, its name, its ID and class.
function Choice({ id }) {
  const row = table.rowOf.get(id);
  const cls = rowClass(row);
  const name = table.names[row];
  return (
    <>
      <span class="swatch" style={{ background: classColor(cls) }} /> {name && <span class="name">{name}</span>}{' '}
      <span class="id">{id}</span> <span class="muted">{cls}</span>
    </>
  );
}
