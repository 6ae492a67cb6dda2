/**
 * The six languages besides English and German: the reference's codes reach the right
 * translation, the shared panels render in each, plurals take each language's own forms, and
 * dates follow the language; a language without a translation stays English throughout.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  currentLocale,
  i18n,
  languageSelfName,
  supportedLanguage,
  switchLanguage,
  translationFor,
} from '.';
import { LoadingState } from '../components/StatePanel';
import { formatDay } from '../features/message-list/format';

afterEach(async () => {
  await act(() => switchLanguage('en'));
});

describe('languages', () => {
  it('reads the reference server’s codes and browsers’ tags', () => {
    expect(translationFor('pt_BR')).toBe('pt-BR');
    expect(translationFor('pt')).toBe('pt-BR');
    expect(translationFor('zh-hans')).toBe('zh-Hans');
    expect(translationFor('zh-CN')).toBe('zh-Hans');
    expect(translationFor('fr-CA')).toBe('fr');
    expect(translationFor('es')).toBe('es');
    expect(translationFor('ja')).toBe('ja');
    expect(translationFor('ru')).toBe('ru');
    expect(translationFor('zh-hant')).toBeNull();
    expect(translationFor('it')).toBeNull();
    expect(supportedLanguage('it')).toBe('en');
    expect(languageSelfName('it')).toBe('Italiano');
    expect(languageSelfName('zh-hans')).toBe('简体中文');
  });

  it.each([
    ['fr', 'Chargement'],
    ['es', 'Cargando'],
    ['pt-BR', 'Carregando'],
    ['ru', 'Загрузка'],
    ['ja', '読み込み中'],
    ['zh-Hans', '正在加载'],
  ])('renders the shared panels in %s', async (code, loading) => {
    render(<LoadingState />);
    await act(() => switchLanguage(code));
    expect(screen.getByRole('status').textContent).toContain(loading);
    expect(document.documentElement.lang).toBe(code);
    expect(currentLocale()).toBe(code);
  });

  it('gives Russian its four plural forms and Japanese its one', async () => {
    await act(() => switchLanguage('ru'));
    const members = (count: number) => i18n.t('groups:list.memberCount', { count });
    expect(members(1)).toBe('1 участник');
    expect(members(3)).toBe('3 участника');
    expect(members(5)).toBe('5 участников');
    expect(members(21)).toBe('21 участник');
    await act(() => switchLanguage('ja'));
    expect(i18n.t('groups:list.memberCount', { count: 1 })).toMatch(/^1\D/);
    expect(i18n.t('groups:list.memberCount', { count: 7 })).toMatch(/^7\D/);
  });

  it('writes numbers and dates the language’s way', async () => {
    const now = new Date(2026, 10, 25, 12, 0);
    const day = new Date(2025, 2, 3, 9).getTime() / 1000;
    await act(() => switchLanguage('fr'));
    expect(i18n.t('navigation:inbox.unreadTotal', { count: 1234 })).toMatch(/^1\s234 /);
    expect(formatDay(day, now)).toMatch(/lun\.? 3 mars 2025/);
    await act(() => switchLanguage('ja'));
    expect(formatDay(day, now)).toContain('2025年3月3日');
    await act(() => switchLanguage('ru'));
    expect(formatDay(day, now)).toMatch(/3 мар\. 2025/);
  });

  it('lands on the language asked for last, even while an earlier one is still loading', async () => {
    // The kept state's language is asked for first, the server's right after.
    const first = switchLanguage('zh-Hans');
    const last = switchLanguage('en');
    await Promise.all([first, last]);
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('keeps a language without a translation wholly in English', async () => {
    render(<LoadingState />);
    await act(() => switchLanguage('it'));
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(document.documentElement.lang).toBe('en');
  });
});
