// The words the window has for the browser's notification permission (the notices panel, the
// settings). Pure: runs in the renderer and in unit tests.

/**
 * What the page says of its notifications, by the browser's permission: null while it may still ask
 * (the window shows its Allow button instead). A blocked permission says so and how to undo it: the
 * browser never asks again, and a button that vanished would leave the person guessing.
 */
export function permissionWords(p: NotificationPermission | 'unsupported'): string | null {
  switch (p) {
    case 'default':
      return null;
    case 'granted':
      return 'Browser notifications are on.';
    case 'denied':
      return 'This browser blocks notifications from this page: allow them in its site settings (beside the address), then reload.';
    case 'unsupported':
      return 'Notifications come from the app, not this page.';
  }
}
