import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ApiProvider } from './api/api-provider';
import { RequireOrganization } from './auth/require-organization';
import { RequireSession } from './auth/require-session';
import { SignInPage } from './auth/sign-in.page';
import { AppLayout } from './layout/app-layout';
import { ApiKeysPage } from './pages/keys/api-keys.page';
import { KeyDetailsPage } from './pages/keys/key-details.page';
import { NotFoundPage } from './pages/not-found.page';
import { UsagePage } from './pages/usage/usage.page';
import { WebhookDetailsPage } from './pages/webhooks/webhook-details.page';
import { WebhooksPage } from './pages/webhooks/webhooks.page';
import { WebsiteDetailsPage } from './pages/websites/website-details.page';
import { WebsitesPage } from './pages/websites/websites.page';

export function App() {
  return (
    <BrowserRouter>
      <ApiProvider>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route
            element={
              <RequireSession>
                <AppLayout />
              </RequireSession>
            }
          >
            <Route index element={<Navigate to="/keys" replace />} />
            <Route element={<RequireOrganization />}>
              <Route path="keys" element={<ApiKeysPage />} />
              <Route path="keys/:id" element={<KeyDetailsPage />} />
              <Route path="websites" element={<WebsitesPage />} />
              <Route path="websites/:id" element={<WebsiteDetailsPage />} />
              <Route path="usage" element={<UsagePage />} />
            </Route>
            <Route path="webhooks" element={<WebhooksPage />} />
            <Route path="webhooks/:id" element={<WebhookDetailsPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </ApiProvider>
    </BrowserRouter>
  );
}
