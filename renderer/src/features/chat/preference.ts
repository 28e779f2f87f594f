/**
 * The open conversation, remembered as an explicit user preference (STYLE: persist only those),
 * so a reload opens it again. The conversations themselves are the engine's.
 */
const KEY = 'skilldeck.chat.openConversation';

export function readOpenConversation(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    // Storage can be off (private mode, a locked profile): start with a new conversation.
    return null;
  }
}

export function writeOpenConversation(id: string | null): void {
  try {
    if (id) localStorage.setItem(KEY, id);
    else localStorage.removeItem(KEY);
  } catch {
    // Not remembering it only costs a click after the next reload.
  }
}
