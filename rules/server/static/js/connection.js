// The live connection to one table: a WebSocket that says hello with the seat token and
// the last event number seen, and comes back by itself when it drops (docs/protocol.md).

const PING_EVERY_MS = 20000;
const RETRY_MS = [300, 1000, 2000, 4000, 8000];

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token  the seat token; null watches as a spectator
   * @param {object} handlers    onStatus(state, attempt), onWelcome(msg), onUpdate(msg), onPresence(msg), onError(msg)
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.lastSeen = null;
    this.socket = null;
    this.attempt = 0;
    this.closed = false;
    this.pingTimer = null;
    this.retryTimer = null;
    this.everOpened = false;
  }

  open() {
    this.closed = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
    this.handlers.onStatus(this.everOpened ? "reconnecting" : "connecting", this.attempt);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, last_seen: this.lastSeen }));
    });
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", () => this.dropped(socket));
    socket.addEventListener("error", () => socket.close());
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "welcome") {
      this.attempt = 0;
      this.everOpened = true;
      this.handlers.onStatus("online", 0);
      this.startPings();
      this.handlers.onWelcome(message);
    } else if (message.type === "update") {
      if (!message.resync && this.lastSeen !== null && message.event_no <= this.lastSeen) return;
      this.lastSeen = message.event_no;
      this.handlers.onUpdate(message);
    } else if (message.type === "presence") {
      this.handlers.onPresence(message);
    } else if (message.type === "draw_offered") {
      this.handlers.onDrawOffer(message);
    } else if (message.type === "error") {
      this.handlers.onError(message);
    }
  }

  dropped(socket) {
    if (socket !== this.socket) return;
    this.stopPings();
    this.socket = null;
    if (this.closed) return;
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.handlers.onStatus("offline", this.attempt);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
  }

  stopPings() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  /** Send a message; false when the connection is down (the caller says so). */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  move(event) {
    return this.send({ type: "move", event, last_seen: this.lastSeen ?? 0 });
  }

  nextHand() {
    return this.send({ type: "next_hand", last_seen: this.lastSeen ?? 0 });
  }

  /** Give the hand up (rules §3.4.1). */
  resign() {
    return this.send({ type: "resign", last_seen: this.lastSeen ?? 0 });
  }

  /** Offer or accept a draw (`agree` true), or decline the one on offer (rules §3.4.2). */
  draw(agree) {
    return this.send({ type: "draw", agree, last_seen: this.lastSeen ?? 0 });
  }

  /** Switch to another token (after taking a seat): reconnect as that seat. */
  useToken(token) {
    this.token = token;
    this.lastSeen = null;
    const old = this.socket;
    this.socket = null;
    clearTimeout(this.retryTimer);
    this.stopPings();
    if (old) old.close();
    this.open();
  }

  /** Drop the connection on purpose (leaving the page): no reconnect. */
  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.stopPings();
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
