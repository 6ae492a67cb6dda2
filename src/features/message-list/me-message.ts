/**
 * "/me is away" reads as "<sender> is away", as in the reference web app: the first paragraph
 * of the rendered content, without its `/me`, becomes an action line beside the sender's name.
 */

export interface MeMessageParts {
  /** the first paragraph's inner HTML after `/me ` (unsanitised, like the content it came from) */
  action: string;
  /** whatever followed the first paragraph, usually nothing */
  rest: string;
}

/**
 * Splits a `/me` message's rendered content; null when it does not start with a paragraph that
 * starts with `/me`, in which case the message shows as it is. The HTML is only parsed in an inert
 * template here: the caller sanitises both parts before showing them.
 */
export function splitMeMessage(html: string): MeMessageParts | null {
  const template = document.createElement('template');
  template.innerHTML = html.trim();
  const first = template.content.firstElementChild;
  if (!first || first.tagName !== 'P' || template.content.firstChild !== first) return null;
  const lead = first.firstChild;
  if (!lead || lead.nodeType !== Node.TEXT_NODE || !/^\/me(\s|$)/.test(lead.textContent ?? ''))
    return null;
  lead.textContent = (lead.textContent ?? '').replace(/^\/me\s?/, '');
  const action = first.innerHTML.trim();
  first.remove();
  return { action, rest: template.innerHTML.trim() };
}
