import { FILTER_OPS } from "@pulsegate/contract/vocabulary";
import { html } from "./html.ts";

export type RuleJson = { field: string; op: string; value?: unknown };

/**
 * The operators offered by the editor's picker, as the alerts service defines them
 * (services/alerts/src/filter-rules/filter-rule.ts). The picker only helps: every rule is checked by
 * the admin API, and its refusal is shown next to the rule it names (filterRules[1].value).
 */
const OPS: readonly string[] = FILTER_OPS;
const BLANK_ROWS = 2;

/** A rule value as typed: JSON when it parses (`"prod"`, `5`, `["a","b"]`), else the text itself. */
function ruleValueOf(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The rows of the submitted editor; a row without a field is dropped. */
export function rulesFromForm(form: URLSearchParams): RuleJson[] {
  const fields = form.getAll("ruleField");
  const ops = form.getAll("ruleOp");
  const values = form.getAll("ruleValue");
  const rules: RuleJson[] = [];
  fields.forEach((field, index) => {
    if (field.trim() === "") return;
    const value = ruleValueOf(values[index] ?? "");
    rules.push(
      value === undefined
        ? { field: field.trim(), op: ops[index] ?? "" }
        : { field: field.trim(), op: ops[index] ?? "", value },
    );
  });
  return rules;
}

/** The editor: one row per rule and a few blank ones; `rules` are the webhook's or the ones just submitted. */
export function ruleEditor(rules: RuleJson[]) {
  const rows = [...rules, ...Array.from({ length: BLANK_ROWS }, () => ({ field: "", op: "==" }) as RuleJson)];
  return html`<fieldset>
    <legend>Filter rules</legend>
    <p class="hint">
      A trigger is accepted only when every rule holds; otherwise it is answered <code>filtered</code> with the first
      rule that failed. Field: <code>title</code>, <code>severity</code> or <code>metadata.some.path</code>. Value: JSON
      (<code>"production"</code>, <code>5</code>, <code>["a","b"]</code>) or plain text; none for <code>exists</code>.
      Empty the field to remove a rule.
    </p>
    <datalist id="rule-fields"><option value="title" /><option value="severity" /><option value="metadata." /></datalist>
    <div class="table-wrap"><table class="rules">
      <thead><tr><th scope="col">#</th><th scope="col">Field</th><th scope="col">Operator</th><th scope="col">Value</th></tr></thead>
      <tbody>
        ${rows.map((rule, index) => {
          const n = index + 1;
          const ops = OPS.includes(rule.op) ? OPS : [rule.op, ...OPS];
          return html`<tr>
            <td>${n}</td>
            <td><input name="ruleField" list="rule-fields" aria-label=${`Rule ${n} field`} value=${rule.field} /></td>
            <td><select name="ruleOp" aria-label=${`Rule ${n} operator`}>
              ${ops.map((op) => html`<option value=${op} selected=${op === rule.op}>${op}</option>`)}
            </select></td>
            <td><input name="ruleValue" aria-label=${`Rule ${n} value`} value=${rule.value === undefined ? "" : JSON.stringify(rule.value)} /></td>
          </tr>`;
        })}
      </tbody>
    </table></div>
  </fieldset>`;
}
