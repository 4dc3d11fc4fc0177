/**
 * The configuration table of docs/operations.md, rendered from the settings table: one row per setting with its
 * variable, default, accepted values and meaning. test/docs/configuration-table.test.ts keeps the page equal to it.
 */
import { CONDITIONS, SETTING_KEYS, SETTINGS, type Setting, type SettingKey } from './settings.js';

/** The default as the docs state it: its own text, or the fixed value in code style, or `unset`. */
function defaultText(setting: Setting<unknown>): string {
  if (setting.defaultDoc !== undefined) return setting.defaultDoc;
  if (setting.default === undefined) return 'unset';
  if (typeof setting.default === 'function' || typeof setting.default === 'object') {
    throw new Error(`${setting.env} needs a defaultDoc: its default does not state itself.`);
  }
  return `\`${String(setting.default)}\``;
}

/** A table cell: pipes escaped, so a text cannot split its row. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The Markdown table, header included, without a trailing newline. */
export function configurationTable(): string {
  const rows = SETTING_KEYS.map((key) => {
    const setting = SETTINGS[key] as Setting<unknown>;
    const bound = setting.atMost === undefined ? '' : `, at most \`${SETTINGS[setting.atMost as SettingKey].env}\``;
    const condition = setting.onlyWith === undefined ? '' : `; ${CONDITIONS[setting.onlyWith].doc}`;
    return `| \`${setting.env}\` | ${cell(defaultText(setting))} | ${cell(setting.kind.allowed + bound)} | ${cell(setting.doc + condition)} |`;
  });
  return ['| Variable | Default | Allowed | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
