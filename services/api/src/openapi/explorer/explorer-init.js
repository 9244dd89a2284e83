/* global window, SwaggerUIBundle */
// Swagger UI on the API's own document. Loaded as a file (not inline) so the page's CSP keeps
// script-src 'self'. persistAuthorization keeps a bearer token entered with "Authorize" across
// reloads (in this browser's localStorage).
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
