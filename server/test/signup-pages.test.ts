import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateEmail, validateFullName } from '../actions/users.js';
import { newPasswordProblem } from '../domain/password.js';
import { reasonText } from '../pages/join.js';
import { PAGE_STYLE } from '../pages/page-style.js';
import { pageLanguage, translator } from '../pages/strings.js';
import fr from '../../src/i18n/locales/fr/signup.json' with { type: 'json' };
import de from '../../src/i18n/locales/de/signup.json' with { type: 'json' };
import es from '../../src/i18n/locales/es/signup.json' with { type: 'json' };
import ru from '../../src/i18n/locales/ru/signup.json' with { type: 'json' };
import ja from '../../src/i18n/locales/ja/signup.json' with { type: 'json' };
import { databases, useServer } from './fixtures.js';

/**
 * The pages invitation and confirmation links open: the client's login card, in the reader's
 * language or else the organization's, with every name and address escaped.
 */

/** What the tests expect of every page: the card, and the stylesheet inline in its head. */
function expectCard(html: string) {
  expect(html).toMatch(/^<!doctype html><html lang="[^"]+">/);
  expect(html).toContain('<main class="signup-page"><div class="signup-card">');
  expect(html).toMatch(/<head>.*<style>[^<]*\.signup-card \{[^<]*<\/style><\/head>/s);
  expect(html).toContain('@media (prefers-color-scheme: dark)');
}

describe.each(databases('both'))('the sign-up pages on %s', (db) => {
  const w = useServer({ db, people: ['desdemona', 'iago'] });

  const visit = async (
    pathname: string,
    { language, form }: { language?: string; form?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (language) headers['Accept-Language'] = language;
    if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${w.server.url}${pathname}`, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: res.status, headers: res.headers, html: await res.text() };
  };
  const reusableLink = async () => {
    const r = await w.as.iago.post('/invites/multiuse', { invite_as: 400, stream_ids: [] });
    expect(r.status).toBe(200);
    return new URL(r.body.invite_link as string).pathname;
  };
  const realmId = async () =>
    (await w.server.ctx.db.selectFrom('realms').select('id').executeTakeFirstOrThrow()).id;
  const setRealm = async (settings: Record<string, string>) =>
    expect((await w.as.desdemona.patch('/realm', settings)).status).toBe(200);

  it('draws the join page as the login card, in English for an English browser', async () => {
    const page = await visit(await reusableLink(), { language: 'en-US,en;q=0.9' });
    expect(page.status).toBe(200);
    expectCard(page.html);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain(
      `<img class="signup-icon" src="/realm-icon/${await realmId()}.svg"`,
    );
    expect(page.html).toContain('<h1>Join Parley Demo</h1>');
    expect(page.html).toContain('<label for="email">Email</label>');
    expect(page.html).toContain('<button type="submit" class="signup-button">Continue</button>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('vary')).toMatch(/accept-language/i);
    // Inline styles are allowed by the policy every page gets; no script is needed.
    expect(page.headers.get('content-security-policy')).toContain(
      "style-src 'self' 'unsafe-inline'",
    );
    expect(page.html).not.toContain('<script');
  });

  it('speaks French to a browser that asks for it, whatever the organization speaks', async () => {
    await setRealm({ default_language: 'de' });
    try {
      const link = await reusableLink();
      const page = await visit(link, { language: 'fr-CA,fr;q=0.9,en;q=0.5' });
      expect(page.status).toBe(200);
      expectCard(page.html);
      expect(page.html).toContain('<html lang="fr">');
      expect(page.html).toContain(`<h1>${fr.join.title.replace('{{realm}}', 'Parley Demo')}</h1>`);
      expect(page.html).toContain(fr.join.enterEmail);
      expect(page.html).toContain(`>${fr.join.continue}</button>`);

      // The form's refusal comes back in French too, in the danger box.
      const refused = await visit(link, { language: 'fr', form: { email: 'not-an-address' } });
      expect(refused.status).toBe(400);
      expect(refused.html).toContain(
        `<p class="signup-error" role="alert">${fr.errors.invalidEmail}</p>`,
      );
      expect(refused.html).toContain('value="not-an-address"');

      const sent = await visit(link, { language: 'fr', form: { email: 'amelie@example.com' } });
      expect(sent.status).toBe(200);
      expect(sent.html).toContain(`<h1>${fr.checkEmail.title}</h1>`);
      expect(sent.html).toContain('Le lien est valable 24 heures.');
    } finally {
      await setRealm({ default_language: 'en' });
    }
  });

  it("speaks the organization's default language to a browser naming no translated one", async () => {
    await setRealm({ default_language: 'de' });
    try {
      const link = await reusableLink();
      for (const language of [undefined, 'it-IT,it;q=0.9']) {
        const page = await visit(link, { language });
        expect(page.status, language).toBe(200);
        expectCard(page.html);
        expect(page.html, language).toContain('<html lang="de">');
        expect(page.html, language).toContain(
          `<h1>${de.join.title.replace('{{realm}}', 'Parley Demo')}</h1>`,
        );
        expect(page.html, language).toContain(`<label for="email">${de.fields.email}</label>`);
      }
    } finally {
      await setRealm({ default_language: 'en' });
    }
  });

  it('answers a dead link with the card, its status unchanged, in the chosen language', async () => {
    const invitation = await visit('/join/not-a-key/', { language: 'es' });
    expect(invitation.status).toBe(404);
    expectCard(invitation.html);
    expect(invitation.html).toContain('<html lang="es">');
    expect(invitation.html).toContain(`<h1>${es.invitationGone.title}</h1>`);
    expect(invitation.html).toContain(es.invitationGone.body);
    expect(invitation.html).toContain(`<a href="/">${es.welcome.logIn}</a>`);

    const confirmation = await visit(`/accounts/do_confirm/${'0'.repeat(64)}/`, {
      language: 'ru',
      form: { full_name: 'Nobody', password: 'nobody-at-all' },
    });
    expect(confirmation.status).toBe(404);
    expectCard(confirmation.html);
    expect(confirmation.html).toContain('<html lang="ru">');
    expect(confirmation.html).toContain(`<h1>${ru.confirmationGone.title}</h1>`);

    const emailChange = await visit('/accounts/confirm_new_email/nothing', { language: 'ja' });
    expect(emailChange.status).toBe(404);
    expectCard(emailChange.html);
    expect(emailChange.html).toContain('<html lang="ja">');
    expect(emailChange.html).toContain(`<h1>${ja.emailChange.goneTitle}</h1>`);
  });

  it("escapes the organization's name and what was typed", async () => {
    const name = '<script>alert(1)</script> & "Co"';
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;';
    await setRealm({ name });
    try {
      const link = await reusableLink();
      for (const language of ['en', 'fr', 'ja']) {
        const page = await visit(link, { language });
        expect(page.html, language).toContain(escaped);
        expect(page.html, language).not.toContain('<script>');
        expect(/<title>([^<]*)<\/title>/.exec(page.html)?.[1], language).toContain(escaped);
      }
      const typed = await visit(link, { form: { email: '"><img src=x onerror=alert(1)>' } });
      expect(typed.status).toBe(400);
      expect(typed.html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
      expect(typed.html).not.toContain('<img src=x');
      const sent = await visit(link, { form: { email: "o&neil's@example.com" } });
      expect(sent.html).toContain('<b>o&amp;neil&#39;s@example.com</b>');
      expect(sent.html).toContain(`finish joining ${escaped}.`);
    } finally {
      await setRealm({ name: 'Parley Demo' });
    }
  });
});

describe('the sign-up pages’ language', () => {
  it("takes the browser's first translated language, else the organization's", () => {
    expect(pageLanguage('fr-CA,fr;q=0.9,en;q=0.8', 'de')).toBe('fr');
    expect(pageLanguage('it-IT, en;q=0.1', 'de')).toBe('en');
    expect(pageLanguage('de;q=0, ja;q=0.5, ru;q=0.7', 'en')).toBe('ru');
    expect(pageLanguage('pt-PT', 'en')).toBe('pt-BR');
    expect(pageLanguage('*', 'pt_BR')).toBe('pt-BR');
    expect(pageLanguage('it', 'zh-hans')).toBe('zh-Hans');
    expect(pageLanguage('zh-TW', 'zh-hant')).toBe('en');
    expect(pageLanguage(undefined, undefined)).toBe('en');
  });

  it('gives every refusal of the sign-up actions in the page’s language', () => {
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('expected a refusal');
    };
    const reasons = [
      newPasswordProblem('short')!,
      newPasswordProblem('x'.repeat(101))!,
      thrown(() => validateEmail('not-an-address')),
      thrown(() => validateFullName(' ')),
      thrown(() => validateFullName('x'.repeat(101))),
      thrown(() => validateFullName('bell\u0007')),
    ];
    const [english, french] = [translator('en'), translator('fr')];
    for (const reason of reasons) {
      expect(reasonText(french, reason), reason).not.toBe(reasonText(english, reason));
      expect(reasonText(french, reason), reason).not.toContain('{{');
    }
    expect(reasonText(french, reasons[0]!)).toBe(
      'Le mot de passe est trop court : utilisez au moins 6 caractères.',
    );
    // A reason with no translation is shown as given, escaped.
    expect(reasonText(french, 'Something <new>')).toBe('Something &lt;new&gt;');
  });
});

describe('the sign-up pages’ stylesheet', () => {
  const tokensCss = fs.readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/styles/tokens.css'),
    'utf8',
  );
  const declarations = (block: string) =>
    new Map([...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
  const blockAfter = (css: string, opening: string) => {
    const start = css.indexOf(opening);
    expect(start, opening).toBeGreaterThanOrEqual(0);
    return css.slice(start, css.indexOf('}', start));
  };

  it("uses the client's tokens, light and dark", () => {
    const light = declarations(blockAfter(tokensCss, ':root {'));
    const dark = declarations(blockAfter(tokensCss, ":root[data-theme='dark'] {"));
    const pageLight = declarations(blockAfter(PAGE_STYLE, ':root {'));
    const pageDark = declarations(
      blockAfter(PAGE_STYLE, '@media (prefers-color-scheme: dark) {\n  :root {'),
    );
    expect(pageLight.size).toBeGreaterThan(20);
    for (const [name, value] of pageLight) expect(value, name).toBe(light.get(name));
    expect(pageDark.size).toBeGreaterThan(10);
    for (const [name, value] of pageDark) expect(value, name).toBe(dark.get(name));
    // Every colour the light theme sets, the dark one sets too.
    for (const name of pageLight.keys())
      if (name.startsWith('--color-')) expect(pageDark.has(name), name).toBe(true);
  });
});
