/** The user's alert words: messages containing one are flagged `has_alert_word`. */
import type { AlertWordsEvent, RegisterResponse } from '../api/model';
import { sameJson } from './same-json';

export interface AlertWordsState {
  words: readonly string[];
}

export function alertWordsFromSnapshot(register: RegisterResponse): AlertWordsState {
  return { words: register.alert_words ?? [] };
}

export function reduceAlertWords(state: AlertWordsState, event: AlertWordsEvent): AlertWordsState {
  return sameJson(state.words, event.alert_words) ? state : { words: event.alert_words };
}
