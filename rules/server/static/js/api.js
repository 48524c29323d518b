// The lobby's HTTP calls and the seat tokens this browser keeps (docs/protocol.md).

/** An error the server answered, with its code and its plain-words message. */
export class ServerError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ServerError("offline", "the server cannot be reached");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok || data?.type === "error") {
    throw new ServerError(data?.code ?? "internal", data?.message ?? `The server answered ${response.status}.`);
  }
  return data;
}

/**
 * A request that carries the name typed into the page: refused with bad_request, it is the name that was refused
 * (docs/protocol.md, *Names*), the request's only text not chosen from the page's own controls. The page says so
 * (the page's code bad_name) instead of "the server refused the request".
 */
async function named(request, name) {
  try {
    return await request;
  } catch (error) {
    if (error.code === "bad_request" && name) throw new ServerError("bad_name", error.message);
    throw error;
  }
}

export const api = {
  config: () => call("GET", "/api/config"),
  listTables: () => call("GET", "/api/tables"),
  createTable: (options) => named(call("POST", "/api/tables", options), options.name),
  joinTable: (id, seat, name) => named(call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, name }), name),
  leaveTable: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token }),
  /** Once the match is over: the same match again at a new table, in this token's seat (made by the first to ask). */
  rematch: (id, token, name) => named(call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token, name }), name),
};

// --- Seat tokens, kept in localStorage so a reload or a new tab finds its seat again. ---

const SEAT_KEY = (tableId) => `trumps.seat.${tableId}`;

/** The seat this browser holds at a table: {seat, token} or null. */
export function savedSeat(tableId) {
  try {
    const value = JSON.parse(localStorage.getItem(SEAT_KEY(tableId)) ?? "null");
    return value && typeof value.token === "string" ? value : null;
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat, token) {
  localStorage.setItem(SEAT_KEY(tableId), JSON.stringify({ seat, token }));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(SEAT_KEY(tableId));
}

export function savedName() {
  return localStorage.getItem("trumps.name") ?? "";
}

export function saveName(name) {
  localStorage.setItem("trumps.name", name);
}
