/** Text made safe to place inside HTML markup, for the few places that build HTML by hand. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
