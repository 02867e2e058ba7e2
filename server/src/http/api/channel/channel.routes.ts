import type { RouteModule } from '../route-kit.js';

export const channelRoutes: RouteModule = () => {};
