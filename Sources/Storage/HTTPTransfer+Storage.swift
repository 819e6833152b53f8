import OutboundHTTP

extension HTTPTransfer {
    /// Performs the transfer, its failure told as object storage tells it (`StorageError`).
    func performForStorage(operation: String) throws(StorageError) -> Response {
        do {
            return try perform(operation: operation)
        } catch {
            switch error.kind {
            case .transport: throw .transport(error.operation, error.message)
            case .localFile: throw .localFile(error.operation, error.message)
            }
        }
    }
}
