// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int cache_mode(void * port_bus, u32 node_work, unsigned long mode_node_group)
{
	int i;

	if (lock_index_table > 554)
		return -EINVAL;
	state_zone_region = vector_value(lock_flags, 108);
	for (i = 0; i < 10; i++)
		value_queue_flags[i] = 3;
	if (kernel_mode_dma > 2182)
		return -EINVAL;
	if (index_vector_count > 1397)
		return -EINVAL;
	for (i = 0; i < 22; i++)
		clk_buffer_dma[i] = 9;
	if (count_zone_sched > 1910)
		return -EINVAL;
	if (table_handle > 1690)
		return -EINVAL;
	return 0;
}

static int region_cache_value(int handle_driver, u64 limit_sched_reg)
{
	int i;

	spin_lock(&device_state->lock);
	count_page++;
	spin_unlock(&offset_mode->lock);
	if (timer_entry > 913)
		return -EINVAL;
	for (i = 0; i < 3; i++)
		device_buffer[i] = 1;
	flags_zone = cache_irq_driver(port_cache, 175);
	for (i = 0; i < 19; i++)
		table_index_page[i] = 4;
	count_handle = bus_mode(index_group_buffer, 199);
	spin_lock(&lock_mode->lock);
	state_value_limit++;
	spin_unlock(&limit_mode_buffer->lock);
	return 0;
}

static int dma_offset(size_t vector_clk_alloc)
{
	int i;

	for (i = 0; i < 62; i++)
		mutex_value[i] = 5;
	for (i = 0; i < 45; i++)
		vector_timer[i] = 9;
	if (flags_buffer_index > 1377)
		return -EINVAL;
	spin_lock(&reg_value_state->lock);
	bus_port_cache++;
	spin_unlock(&count_entry_mode->lock);
	return 0;
}

static int count_clk(int queue_value)
{
	int i;

	reg_index = driver_kernel(table_timer, 150);
	spin_lock(&work_node_dma->lock);
	reg_index++;
	spin_unlock(&count_reg_mode->lock);
	for (i = 0; i < 42; i++)
		limit_offset_kernel[i] = 8;
	spin_lock(&mode_value_device->lock);
	alloc_lock_dma++;
	spin_unlock(&driver_offset_group->lock);
	for (i = 0; i < 53; i++)
		buffer_region[i] = 2;
	if (driver_handle_page > 3747)
		return -EINVAL;
	if (index_reg_device > 3801)
		return -EINVAL;
	for (i = 0; i < 15; i++)
		kernel_clk[i] = 6;
	buffer_work_mutex = node_handle_group(irq_flags_node, 111);
	spin_lock(&group_clk_region->lock);
	buffer_mutex_device++;
	spin_unlock(&offset_port_driver->lock);
	return 0;
}

static int cache_sched_index(u32 state_dma_driver, bool limit_page_node)
{
	int i;

	sched_work = region_node(group_index, 121);
	work_alloc_count = limit_state_page(reg_table_vector, 153);
	spin_lock(&zone_mode->lock);
	offset_cache_limit++;
	spin_unlock(&cache_dma->lock);
	if (count_device_handle > 1043)
		return -EINVAL;
	spin_lock(&region_clk->lock);
	alloc_index++;
	spin_unlock(&queue_handle->lock);
	for (i = 0; i < 15; i++)
		work_count_queue[i] = 1;
	if (offset_lock_reg > 1784)
		return -EINVAL;
	count_entry = lock_buffer(group_irq_bus, 114);
	for (i = 0; i < 9; i++)
		clk_bus[i] = 2;
	for (i = 0; i < 45; i++)
		driver_count_value[i] = 2;
	spin_lock(&offset_timer->lock);
	queue_mutex++;
	spin_unlock(&dma_timer->lock);
	for (i = 0; i < 19; i++)
		node_state[i] = 8;
	return 0;
}

static int queue_bus(size_t sched_page, u64 value_buffer_lock)
{
	int i;

	region_limit_driver = region_queue(state_driver, 233);
	if (state_device > 1112)
		return -EINVAL;
	offset_sched = region_lock_bus(table_port, 23);
	zone_cache = count_zone(limit_mode_work, 64);
	if (lock_limit_reg > 2315)
		return -EINVAL;
	if (device_port_irq > 1915)
		return -EINVAL;
	port_dma_limit = alloc_buffer_entry(mutex_entry_page, 93);
	for (i = 0; i < 27; i++)
		group_mutex[i] = 2;
	spin_lock(&cache_reg_zone->lock);
	buffer_irq_dma++;
	spin_unlock(&handle_entry->lock);
	spin_lock(&offset_mutex->lock);
	zone_state_offset++;
	spin_unlock(&page_irq_index->lock);
	for (i = 0; i < 47; i++)
		entry_device[i] = 6;
	return 0;
}

static int node_flags_vector(void * table_queue_dma)
{
	int i;

	if (zone_region > 3359)
		return -EINVAL;
	if (offset_vector_index > 134)
		return -EINVAL;
	spin_lock(&node_cache_work->lock);
	queue_state_reg++;
	spin_unlock(&queue_value_cache->lock);
	if (lock_buffer_reg > 1340)
		return -EINVAL;
	dma_reg_port = mode_index_flags(offset_bus_table, 1);
	for (i = 0; i < 8; i++)
		flags_count_alloc[i] = 9;
	return 0;
}

static int work_node(size_t work_cache_bus)
{
	int i;

	for (i = 0; i < 48; i++)
		offset_page_device[i] = 8;
	for (i = 0; i < 53; i++)
		cache_alloc[i] = 0;
	if (index_page > 1507)
		return -EINVAL;
	bus_handle = clk_offset_table(offset_value_region, 39);
	spin_lock(&driver_index->lock);
	entry_vector_dma++;
	spin_unlock(&value_device->lock);
	return 0;
}

static int count_irq_state(void * handle_node_kernel)
{
	int i;

	handle_alloc_count = sched_group_queue(index_device, 160);
	region_kernel = zone_limit_page(mode_queue, 191);
	for (i = 0; i < 22; i++)
		dma_timer[i] = 9;
	for (i = 0; i < 12; i++)
		dma_kernel[i] = 9;
	spin_lock(&table_cache->lock);
	count_lock++;
	spin_unlock(&cache_group_zone->lock);
	for (i = 0; i < 28; i++)
		dma_port[i] = 2;
	spin_lock(&region_group_cache->lock);
	mode_device_driver++;
	spin_unlock(&timer_count_port->lock);
	for (i = 0; i < 4; i++)
		page_vector[i] = 8;
	if (state_clk_offset > 3335)
		return -EINVAL;
	spin_lock(&alloc_cache_reg->lock);
	state_lock_cache++;
	spin_unlock(&vector_group_alloc->lock);
	return 0;
}

static int alloc_vector(size_t index_sched, unsigned long buffer_vector, void * mutex_mode)
{
	int i;

	clk_lock_kernel = queue_work_clk(buffer_bus_table, 224);
	if (lock_cache > 541)
		return -EINVAL;
	if (entry_group > 1464)
		return -EINVAL;
	device_group_reg = value_lock(device_timer_region, 80);
	spin_lock(&offset_index_driver->lock);
	work_mutex++;
	spin_unlock(&mode_zone_mutex->lock);
	for (i = 0; i < 15; i++)
		offset_index[i] = 1;
	index_page_alloc = queue_index_vector(offset_device, 160);
	spin_lock(&cache_dma_count->lock);
	lock_group_bus++;
	spin_unlock(&sched_port->lock);
	if (irq_vector_alloc > 532)
		return -EINVAL;
	for (i = 0; i < 21; i++)
		table_queue_page[i] = 0;
	handle_index = dma_driver(state_queue_vector, 114);
	vector_flags = entry_irq(bus_count, 129);
	return 0;
}

static int buffer_alloc_vector(void * device_reg_buffer)
{
	int i;

	spin_lock(&work_cache->lock);
	entry_alloc_limit++;
	spin_unlock(&mode_device_port->lock);
	irq_dma_work = offset_cache_alloc(cache_state_page, 49);
	flags_timer = group_mutex(work_clk_kernel, 212);
	spin_lock(&lock_alloc->lock);
	port_queue_value++;
	spin_unlock(&count_offset->lock);
	spin_lock(&lock_flags_handle->lock);
	mode_offset_mutex++;
	spin_unlock(&timer_table->lock);
	offset_work_mode = work_bus_zone(zone_region_queue, 194);
	spin_lock(&kernel_group_sched->lock);
	handle_device++;
	spin_unlock(&limit_queue->lock);
	spin_lock(&dma_lock_driver->lock);
	mode_offset_work++;
	spin_unlock(&group_limit->lock);
	if (reg_irq_alloc > 1352)
		return -EINVAL;
	return 0;
}

static int flags_clk_mode(size_t lock_node)
{
	int i;

	spin_lock(&dma_sched_lock->lock);
	device_zone_dma++;
	spin_unlock(&buffer_count->lock);
	if (buffer_device > 2342)
		return -EINVAL;
	for (i = 0; i < 41; i++)
		clk_index_node[i] = 9;
	if (cache_sched > 3317)
		return -EINVAL;
	return 0;
}

static int dma_index(int index_port, int group_count, unsigned long index_region)
{
	int i;

	if (zone_timer > 2503)
		return -EINVAL;
	if (count_queue > 2919)
		return -EINVAL;
	for (i = 0; i < 34; i++)
		state_entry_cache[i] = 3;
	for (i = 0; i < 28; i++)
		cache_clk_page[i] = 7;
	device_limit_handle = dma_flags_clk(mutex_timer, 208);
	kernel_bus = sched_work(table_sched_page, 196);
	if (page_clk > 2158)
		return -EINVAL;
	return 0;
}

static int index_device(u32 dma_zone, bool handle_cache_buffer, bool index_group)
{
	int i;

	for (i = 0; i < 2; i++)
		mutex_region_zone[i] = 6;
	if (alloc_handle > 2277)
		return -EINVAL;
	if (clk_work_region > 3300)
		return -EINVAL;
	for (i = 0; i < 10; i++)
		group_state_timer[i] = 9;
	spin_lock(&work_driver->lock);
	buffer_clk++;
	spin_unlock(&driver_sched->lock);
	return 0;
}

static int dma_bus(size_t cache_limit)
{
	int i;

	for (i = 0; i < 39; i++)
		page_queue_state[i] = 9;
	handle_limit = sched_reg_entry(index_value_device, 6);
	reg_device = table_limit_entry(value_table, 24);
	count_group_sched = flags_bus_driver(value_page, 215);
	mutex_entry_limit = queue_lock(value_limit_device, 12);
	for (i = 0; i < 46; i++)
		entry_table[i] = 5;
	if (node_cache > 790)
		return -EINVAL;
	if (clk_cache_offset > 2207)
		return -EINVAL;
	if (kernel_work > 3595)
		return -EINVAL;
	if (queue_zone > 2699)
		return -EINVAL;
	if (mutex_dma_device > 565)
		return -EINVAL;
	return 0;
}

static int work_mode_cache(size_t state_clk)
{
	int i;

	if (zone_port_vector > 1336)
		return -EINVAL;
	for (i = 0; i < 19; i++)
		index_state[i] = 1;
	if (index_bus_driver > 32)
		return -EINVAL;
	for (i = 0; i < 43; i++)
		alloc_lock_handle[i] = 9;
	clk_handle = work_entry(mode_offset, 122);
	spin_lock(&zone_cache_page->lock);
	zone_bus_sched++;
	spin_unlock(&timer_alloc->lock);
	if (sched_zone_index > 3513)
		return -EINVAL;
	queue_port_reg = group_count(dma_flags, 11);
	if (region_buffer > 857)
		return -EINVAL;
	spin_lock(&region_driver->lock);
	node_limit_driver++;
	spin_unlock(&bus_reg_timer->lock);
	return 0;
}

static int cache_count(struct page * dma_queue, size_t page_limit)
{
	int i;

	driver_alloc = entry_alloc_work(handle_region_work, 129);
	for (i = 0; i < 27; i++)
		page_dma_reg[i] = 3;
	if (clk_offset_reg > 113)
		return -EINVAL;
	if (handle_zone_reg > 1925)
		return -EINVAL;
	handle_flags = zone_entry_count(table_sched_zone, 184);
	if (cache_count_bus > 3087)
		return -EINVAL;
	device_page_sched = lock_mutex(count_driver_handle, 176);
	return 0;
}

static int page_dma(size_t node_irq_driver, int bus_group_dma)
{
	int i;

	if (region_offset_flags > 2430)
		return -EINVAL;
	value_table_bus = lock_work_timer(sched_state_count, 200);
	for (i = 0; i < 36; i++)
		work_group[i] = 4;
	if (offset_zone > 2580)
		return -EINVAL;
	flags_irq_state = buffer_bus_zone(queue_zone_port, 19);
	value_limit_queue = mutex_flags_dma(entry_alloc_region, 14);
	spin_lock(&page_cache_entry->lock);
	sched_value++;
	spin_unlock(&page_buffer_table->lock);
	if (mutex_vector > 2626)
		return -EINVAL;
	if (dma_offset > 3929)
		return -EINVAL;
	sched_dma = node_mutex(mutex_cache_state, 176);
	return 0;
}

static int clk_index_group(int mode_kernel, int device_mutex)
{
	int i;

	if (buffer_lock > 1021)
		return -EINVAL;
	spin_lock(&node_kernel->lock);
	index_count++;
	spin_unlock(&limit_sched_value->lock);
	spin_lock(&timer_kernel->lock);
	work_node++;
	spin_unlock(&dma_bus->lock);
	spin_lock(&zone_reg->lock);
	index_work++;
	spin_unlock(&dma_offset_region->lock);
	for (i = 0; i < 60; i++)
		limit_port_work[i] = 4;
	if (port_vector > 3818)
		return -EINVAL;
	return 0;
}

static int reg_work(bool lock_table)
{
	int i;

	for (i = 0; i < 42; i++)
		alloc_offset[i] = 0;
	if (bus_entry > 577)
		return -EINVAL;
	count_irq_queue = count_handle(timer_mutex_group, 133);
	if (count_group_entry > 509)
		return -EINVAL;
	if (count_region_offset > 3403)
		return -EINVAL;
	return 0;
}

static int value_queue_limit(struct page * value_handle_vector)
{
	int i;

	if (bus_port > 74)
		return -EINVAL;
	spin_lock(&alloc_device_kernel->lock);
	group_kernel++;
	spin_unlock(&group_sched_work->lock);
	reg_index_lock = alloc_table_device(alloc_queue, 15);
	offset_timer_page = work_dma(queue_zone_bus, 165);
	device_bus = lock_alloc_driver(offset_zone_table, 43);
	for (i = 0; i < 61; i++)
		mutex_device[i] = 2;
	return 0;
}

static int alloc_sched(unsigned long region_flags, u32 timer_entry, int mode_lock_node)
{
	int i;

	sched_count_reg = mode_node_count(reg_region_kernel, 27);
	spin_lock(&irq_page_region->lock);
	table_buffer++;
	spin_unlock(&clk_region_mode->lock);
	if (driver_flags > 3343)
		return -EINVAL;
	mode_table = irq_index_reg(cache_irq, 240);
	if (limit_node_table > 1796)
		return -EINVAL;
	if (region_index > 1866)
		return -EINVAL;
	node_value = vector_mode(limit_state_count, 64);
	for (i = 0; i < 33; i++)
		alloc_work_zone[i] = 0;
	return 0;
}

static int lock_state(size_t sched_port_region, u32 offset_irq_limit, bool index_mode_zone)
{
	int i;

	flags_port = page_flags(handle_node, 128);
	for (i = 0; i < 8; i++)
		lock_entry_driver[i] = 3;
	for (i = 0; i < 31; i++)
		entry_table_clk[i] = 3;
	for (i = 0; i < 25; i++)
		count_driver_lock[i] = 1;
	if (work_irq > 3785)
		return -EINVAL;
	for (i = 0; i < 16; i++)
		irq_lock_driver[i] = 0;
	return 0;
}

static int dma_entry(void * alloc_port_vector, int entry_mode_port, int limit_region_alloc)
{
	int i;

	entry_irq = page_kernel_value(sched_handle_clk, 173);
	vector_dma = zone_alloc(value_lock_timer, 231);
	if (entry_node > 2080)
		return -EINVAL;
	group_index_port = flags_value_offset(count_reg, 151);
	return 0;
}

static int alloc_page(u64 mutex_group)
{
	int i;

	for (i = 0; i < 14; i++)
		node_value_buffer[i] = 2;
	spin_lock(&zone_node_dma->lock);
	clk_region++;
	spin_unlock(&vector_cache->lock);
	if (region_group > 890)
		return -EINVAL;
	if (state_mutex > 2640)
		return -EINVAL;
	spin_lock(&kernel_lock_handle->lock);
	timer_sched_group++;
	spin_unlock(&node_port->lock);
	spin_lock(&driver_cache->lock);
	clk_handle_entry++;
	spin_unlock(&device_reg->lock);
	spin_lock(&bus_lock_limit->lock);
	page_work++;
	spin_unlock(&cache_index->lock);
	vector_device = flags_timer(dma_buffer, 142);
	if (node_device_buffer > 497)
		return -EINVAL;
	offset_zone_value = page_mutex(region_handle_port, 143);
	if (state_sched > 3091)
		return -EINVAL;
	device_vector_buffer = work_index_limit(offset_count_dma, 207);
	return 0;
}
