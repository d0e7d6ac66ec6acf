// The server's JSON API (see the book's "Serve" section): each call a
// POST of JSON, or a GET; an answer that is not 2xx throws its message.

export class ApiError extends Error {
  constructor(message, body) {
    super(message);
    this.body = body;
  }
}

async function answer(response) {
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(`the server answered ${response.status}: ${text.slice(0, 200)}`);
  }
  if (!response.ok) {
    const more = (body.diagnostics || [])
      .map((d) => (d.line ? `line ${d.line}:${d.column}: ` : '') + d.message + (d.hint ? ` (${d.hint})` : ''))
      .join('; ');
    throw new ApiError((body.error || `error ${response.status}`) + (more ? `: ${more}` : ''), body);
  }
  return body;
}

export async function get(path) {
  return answer(await fetch(path));
}

export async function post(path, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return answer(await fetch(path, { method: 'POST', body: text }));
}
