import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { shouldRetry } from './app/errors';
import { NoticeProvider } from './app/notices';
// In this order: later rules rely on the tokens, and some override earlier ones.
import './styles/tokens.css';
import './styles/frame.css';
import './styles/surfaces.css';
import './styles/tables.css';
import './styles/controls.css';
import './styles/lists.css';
import './styles/pages.css';
import './styles/phone.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      refetchOnWindowFocus: true,
      staleTime: 10_000,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <NoticeProvider>
          <App />
        </NoticeProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
