/// The service, held weakly by the hybrid scheduler's drain hook (the service owns the scheduler).
final class ServiceBox: @unchecked Sendable {
    weak var service: ImageService?
}
