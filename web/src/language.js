// The variant language for CodeMirror: its words come from the server
// (`/api/language`, the checker's own lists), so the colours follow the
// language as sow reads it.

import { StreamLanguage } from '@codemirror/language';

export function sowLanguage(words) {
  const sets = {
    statements: new Set(words.statements),
    actions: new Set(words.actions),
    moments: new Set(words.moments),
    functions: new Set(words.functions),
    words: new Set(words.words),
  };
  const joining = new Set(['and', 'or', 'not', 'at', 'when', 'while', 'during', 'from', 'to', 'in', 'per', 'chain', 'winner', 'loser']);
  return StreamLanguage.define({
    name: 'sow',
    startState: () => ({}),
    token(stream) {
      if (stream.eatSpace()) return null;
      if (stream.peek() === '#') {
        stream.skipToEnd();
        return 'comment';
      }
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
      if (stream.match(/^\d+(\.\.\d+)?/)) return 'number';
      const m = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (m) {
        const w = m[0];
        const first = stream.start === stream.indentation() || stream.string.slice(0, stream.start).trim() === '';
        if (first && sets.statements.has(w)) return 'keyword';
        if (sets.actions.has(w)) return 'controlKeyword';
        if (sets.moments.has(w)) return 'labelName';
        if (stream.peek() === '(' && sets.functions.has(w)) return 'propertyName';
        if (sets.words.has(w)) return 'atom';
        if (joining.has(w) || sets.statements.has(w)) return 'operatorKeyword';
        return 'variableName';
      }
      if (stream.match(/^(==|!=|<=|>=|[-+*\/<>=:{}(),\\])/)) return 'operator';
      stream.next();
      return null;
    },
    languageData: { commentTokens: { line: '#' } },
  });
}
