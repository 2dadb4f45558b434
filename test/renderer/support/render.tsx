// Renders a component into the test's DOM (happy-dom) inside the desk's providers, and empties the DOM after each test.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import { I18nProvider } from '../../../renderer/src/i18n';
import type { Language } from '../../../shared/language';

afterEach(cleanup);

/** The element in the desk's language (the catalogues' real words). */
export function renderIn(language: Language, element: ReactElement): RenderResult {
  return render(<I18nProvider initialLanguage={language}>{element}</I18nProvider>);
}

/** A query client as the app makes it (no retries), for components that read or write through react-query. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** The element in the desk's language with a query client (given, to inspect its caches). */
export function renderWithData(
  language: Language,
  element: ReactElement,
  queryClient: QueryClient = testQueryClient(),
): RenderResult & { queryClient: QueryClient } {
  return {
    ...render(
      <QueryClientProvider client={queryClient}>
        <I18nProvider initialLanguage={language}>{element}</I18nProvider>
      </QueryClientProvider>,
    ),
    queryClient,
  };
}
