import JobSpec
/// A page of a list: `{"pageInfo": {...}, "data": [...]}` (`page` from 1, `perPage` default 20).
public struct PageView<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public struct PageInfo: Codable, Sendable, Equatable {
        public var currentPage: Int
        public var perPage: Int
        public var lastPage: Int
        public var total: Int
    }

    public var pageInfo: PageInfo
    public var data: [Item]

    public init(page: Int, perPage: Int, total: Int, data: [Item]) {
        pageInfo = PageInfo(currentPage: page, perPage: perPage, lastPage: max(1, (total + perPage - 1) / perPage), total: total)
        self.data = data
    }
}
