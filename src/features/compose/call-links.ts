/**
 * Call links, as the reference web app writes them for Jitsi Meet: a meeting named by fifteen
 * random digits on the organization's server; a voice call is the same meeting with the camera
 * off at the start.
 */

export type CallKind = 'video' | 'voice';

/** Fifteen digits, never starting with 0 (the reference's random_int(10^14, 10^15 - 1)). */
export function newCallId(random: () => number = Math.random): string {
  return String(1e14 + Math.floor(random() * 9e14));
}

export function callUrl(kind: CallKind, server: string, id: string): string {
  const url = `${server.replace(/\/+$/, '')}/${id}`;
  return kind === 'voice' ? `${url}#config.startWithVideoMuted=true` : url;
}

/** `[Join video call.](https://meet.example/123...)`: `text` is the link's words. */
export function callLinkMarkdown(kind: CallKind, server: string, text: string, id = newCallId()) {
  return `[${text}](${callUrl(kind, server, id)})`;
}
