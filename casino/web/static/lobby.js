"use strict";
// The lobby's socket (page.js): the lobby's chat (chat.js).
chatWith(socketTo("/ws/lobby", () => {}));
