/**
 * Custom profile field definitions, in display order. Users' values live on the users
 * (`profile_data`); see users.ts.
 */
import type { CustomProfileField, CustomProfileFieldsEvent, RegisterResponse } from '../api/model';
import { sameJson } from './same-json';

export interface ProfileFieldsState {
  fields: readonly CustomProfileField[];
}

export function profileFieldsFromSnapshot(register: RegisterResponse): ProfileFieldsState {
  return { fields: register.custom_profile_fields ?? [] };
}

/** Every change to the definitions sends the whole list. */
export function reduceProfileFields(
  state: ProfileFieldsState,
  event: CustomProfileFieldsEvent,
): ProfileFieldsState {
  return sameJson(state.fields, event.fields) ? state : { fields: event.fields };
}

/** The choices of a choice field (type 3), in their order; empty for other types. */
export function fieldChoices(field: CustomProfileField): { key: string; text: string }[] {
  if (field.type !== 3 || !field.field_data) return [];
  try {
    const data = JSON.parse(field.field_data) as Record<string, { text: string; order: string }>;
    return Object.entries(data)
      .sort(([, a], [, b]) => Number(a.order) - Number(b.order))
      .map(([key, choice]) => ({ key, text: choice.text }));
  } catch {
    return [];
  }
}
