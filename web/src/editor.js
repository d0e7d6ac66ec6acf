// The variant's text in CodeMirror: the language's colours, the checker's
// diagnostics as you type (underlined where they point, "did you mean"
// offered as a fix), and the rules an analysis never saw fire marked.

import { basicSetup } from 'codemirror';
import { EditorView, Decoration } from '@codemirror/view';
import { StateEffect, StateField, RangeSetBuilder } from '@codemirror/state';
import { linter, lintGutter, forceLinting } from '@codemirror/lint';
import { post } from './api.js';
import { sowLanguage } from './language.js';

// The file a request's text is checked as.
const FILE = 'request.sow';

// A place the checker gives (line and column from 1, in characters) as an
// offset in the document.
function offset(doc, line, column) {
  if (!line) return 0;
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const chars = Array.from(l.text);
  const before = chars.slice(0, Math.max(column - 1, 0)).join('');
  return l.from + Math.min(before.length, l.length);
}

// The checker's diagnostics as CodeMirror's, each with its hint, and a
// fix where the hint says "did you mean `X`?".
export function toDiagnostics(doc, found) {
  return found.map((d) => {
    const elsewhere = d.file && d.file !== FILE;
    let from = elsewhere ? 0 : offset(doc, d.line, d.column);
    let to = elsewhere ? 0 : offset(doc, d.end_line, d.end_column);
    if (to <= from) {
      const word = doc.sliceString(from, Math.min(from + 40, doc.line(doc.lineAt(from).number).to)).match(/^[\w.]+/);
      to = from + (word ? word[0].length : 1);
      to = Math.min(to, doc.length);
    }
    const where = elsewhere ? ` (in ${d.file}, line ${d.line}:${d.column})` : '';
    const out = {
      from,
      to,
      severity: d.severity === 'warning' ? 'warning' : 'error',
      message: d.message + where + (d.hint ? `\nhint: ${d.hint}` : ''),
      actions: [],
    };
    const mean = d.hint && d.hint.match(/did you mean `([^`]+)`/);
    if (mean && !elsewhere && to > from) {
      out.actions.push({
        name: `use ${mean[1]}`,
        apply(view, f, t) {
          view.dispatch({ changes: { from: f, to: t, insert: mean[1] } });
        },
      });
    }
    return out;
  });
}

// The rules an analysis never saw fire: line decorations.
const setNeverFired = StateEffect.define();
const neverFired = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) if (e.is(setNeverFired)) deco = e.value;
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export class Editor {
  // `words`: `/api/language`; `checked(result, text)` is told of each check.
  constructor(parent, words, checked) {
    this.checked = checked;
    this.view = new EditorView({
      parent,
      doc: '',
      extensions: [
        basicSetup,
        sowLanguage(words),
        lintGutter(),
        linter((view) => this.lint(view), { delay: 300 }),
        neverFired,
        EditorView.lineWrapping,
      ],
    });
  }

  get text() {
    return this.view.state.doc.toString();
  }

  set text(t) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: t } });
    forceLinting(this.view);
  }

  async lint(view) {
    const text = view.state.doc.toString();
    let result;
    try {
      result = await post('/api/check', text);
    } catch (e) {
      this.checked({ ok: false, diagnostics: [{ message: e.message }] }, text);
      return [];
    }
    // (The text may have changed while it was checked.)
    if (view.state.doc.toString() !== text) return [];
    this.checked(result, text);
    return toDiagnostics(view.state.doc, result.diagnostics);
  }

  // Marks the lines of the rules and ends named (`rule NAME`, `end NAME`,
  // as an analysis's `never_fired` names them).
  markNeverFired(names) {
    const doc = this.view.state.doc;
    const b = new RangeSetBuilder();
    const line = Decoration.line({ class: 'cm-never-fired', attributes: { title: 'never fired in the analysis' } });
    const wanted = new Set(names);
    for (let i = 1; i <= doc.lines; i++) {
      const l = doc.line(i);
      const m = l.text.match(/^\s*(rule|end)\s+([A-Za-z_][A-Za-z0-9_]*)/);
      if (m && wanted.has(`${m[1]} ${m[2]}`)) b.add(l.from, l.from, line);
    }
    this.view.dispatch({ effects: setNeverFired.of(b.finish()) });
  }
}
