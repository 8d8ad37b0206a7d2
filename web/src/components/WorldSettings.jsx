// The world settings (WorldSettings.jasset), edited like an entity's fields:
// one editor per reflected field, errors next to the field, undo, pending.
import { SETTINGS_FILE } from 'juliet-world';
import { SETTINGS } from '../lib/fields.js';
import { setSetting } from '../state/edits.js';
import { settings, settingsSchema } from '../state/world.js';
import { FieldEditor } from './FieldEditor.jsx';

export function WorldSettings() {
  const current = settings.value;
  if (!current) return null;
  const locked = current.failed || current.readOnly;
  return (
    <details class="world-settings">
      <summary>World settings{current.dirty && <span class="unsaved"> · unsaved</span>}</summary>
      <section aria-label="World settings">
        <p class="muted">
          {SETTINGS_FILE}
          {current.failed && <span> · failed to load: see Diagnostics; it is left as it is</span>}
          {!current.failed && current.readOnly && <span> · read-only (written by a newer build)</span>}
        </p>
        <fieldset class="fields">
          <legend>Settings fields</legend>
          {settingsSchema.value.map((field) => (
            <FieldEditor
              key={field.name}
              field={field}
              value={current.fields[field.name]}
              disabled={locked}
              onSet={setSetting}
              scope={SETTINGS}
            />
          ))}
        </fieldset>
      </section>
    </details>
  );
}
