/**
 * The search language as the search box uses it: parsing, pills and suggestions. Loaded when the
 * box is first used (use-search-language.ts), not with the first view: a view that nobody
 * searches from does not need it.
 */
export { narrowToSearchText, searchToNarrow } from './search-query';
export {
  draftQuery,
  narrowDraft,
  pillChannel,
  pillLabel,
  pillText,
  takePills,
} from './search-pills';
export { channelInText, peopleIndex, suggest, typingTopic } from './search-suggestions';
